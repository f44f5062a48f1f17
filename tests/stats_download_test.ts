/**
 * The bundle download (src/gateway/download.ts) against a local server: the size cap with and
 * without Content-Length (nothing left on disk), and the indeterminate progress bar when the size
 * is unknown. The bundle manager uses it with a 50 MiB cap.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { downloadToFile } from "../src/gateway/download.ts";
import { MAX_BUNDLE_BYTES } from "../src/stats/bundle.ts";
import { barLine, Progress } from "../src/output/progress.ts";
import { SvcError } from "../src/domain/errors.ts";

const CAP = 64 * 1024;

/** `n` bytes in 4 KiB chunks, streamed (no Content-Length) or with a declared length. */
function body(n: number, declared: boolean): Response {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= n) return c.close();
      const chunk = new Uint8Array(Math.min(4096, n - sent)).fill(120);
      sent += chunk.length;
      c.enqueue(chunk);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/gzip", ...(declared ? { "content-length": String(n) } : {}) },
  });
}

Deno.test("bundle download: capped with and without Content-Length; unknown size shows an indeterminate bar", async () => {
  assert.equal(MAX_BUNDLE_BYTES, 50 * 1024 * 1024, "the bundle cap is 50 MiB");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/declared-too-big") return body(CAP + 1, true);
    if (path === "/streamed-too-big") return body(CAP * 3, false);
    return body(CAP - 100, false);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir();
  try {
    for (const path of ["/declared-too-big", "/streamed-too-big"]) {
      const dest = join(dir, `${path.slice(1)}.tar.gz`);
      await assert.rejects(
        downloadToFile({ url: base + path, dest, maxBytes: CAP }),
        (e: unknown) => e instanceof SvcError && /cap/.test(e.message),
        path,
      );
      await assert.rejects(Deno.stat(dest), Deno.errors.NotFound, `${path}: no partial file is left`);
    }

    const lines: string[] = [];
    const bar = new Progress(true, (s) => lines.push(s)).bar();
    const totals = new Set<number | undefined>();
    const dest = join(dir, "ok.tar.gz");
    const got = await downloadToFile({
      url: `${base}/streamed-ok`,
      dest,
      maxBytes: CAP,
      onProgress: (read, total) => {
        totals.add(total);
        bar.update(read, total);
      },
    });
    bar.finish();
    assert.equal(got.bytes, CAP - 100);
    assert.equal((await Deno.stat(dest)).size, CAP - 100);
    assert.deepEqual([...totals], [undefined], "no Content-Length: the total is unknown");
    // What the bar draws for an unknown total (redraws are throttled, so the line is checked directly).
    assert.equal(barLine(4096, undefined), "[........................]  -- 4.0 KB / unknown size");
    assert.match(lines.join(""), /\[#{24}\] 100% 63\.9 KB \/ 63\.9 KB\n$/, "finished at 100 % of what came");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
