/** Code blocks of the README that tests run as written, found by an HTML comment marker before them. */

import assert from "node:assert/strict";

/** The body of the ```<lang> block right after `<!-- <marker> -->`. */
export function readmeBlock(readme: string, marker: string, lang: string): string {
  const block = readme.match(new RegExp(`<!-- ${marker} -->\\s*\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``))?.[1];
  assert.ok(block, `the README marks a ${lang} block with <!-- ${marker} -->`);
  return block;
}
