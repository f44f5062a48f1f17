/** `svc stats` opens the dashboard in the browser (BROWSER_BIN) unless `--no-open`. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { withEnv } from "../helpers.ts";
import { freePort, serveOnce, signIn } from "../stats_helpers.ts";

Deno.test({
  name: "stats: the browser is started with the dashboard URL; --no-open starts none",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withEnv(async (t) => {
      await signIn(t);
      // A "browser" that writes the URL it was given to a file.
      const opened = join(t.dir, "opened.txt");
      const browser = join(t.dir, "browser.sh");
      await Deno.writeTextFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      await Deno.chmod(browser, 0o755);

      const served = await serveOnce(t, ["--json", "--no-sync", "--port", String(freePort())], {
        open: true,
        env: { BROWSER_BIN: browser },
        whileServing: async (s) => {
          // The browser starts right after the envelope; the bound only keeps a broken run from hanging.
          for (let i = 0; i < 600 && !(await Deno.readTextFile(opened).catch(() => "")); i++) {
            await new Promise((r) => setTimeout(r, 100));
          }
          const url = await Deno.readTextFile(opened).catch(() => "(the browser was never started)");
          assert.equal(url, s.envelope!.data.server.url);
        },
      });
      assert.equal(served.code, 130, served.stdout + served.stderr);

      // Table mode says when the browser cannot be started; "Dashboard ready" comes after the attempt.
      const missing = { BROWSER_BIN: join(t.dir, "no-such-browser") };
      const failed = await serveOnce(t, ["--no-sync", "--port", String(freePort())], {
        open: true,
        env: missing,
      });
      assert.equal(failed.code, 130, failed.stderr);
      assert.match(failed.stderr, /Could not auto-open browser/);
      const noOpen = await serveOnce(t, ["--no-sync", "--no-open", "--port", String(freePort())], {
        open: true,
        env: missing,
      });
      assert.equal(noOpen.code, 130, noOpen.stderr);
      assert.match(noOpen.stderr, /Dashboard ready/);
      assert.doesNotMatch(noOpen.stderr, /auto-open/, "--no-open starts no browser");
    });
  },
});
