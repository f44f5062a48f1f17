/**
 * One mutation to an IPv6 literal through the wire client (src/gateway/wire.ts), for wire_test.ts: a raw
 * listener on [::1] reads the request, answers 201, and what arrived is printed as JSON. A subprocess,
 * because the test run's --allow-net covers 127.0.0.1 only; run it with --allow-net=[::1].
 */

import { sendOnce } from "../../src/gateway/wire.ts";

const listener = Deno.listen({ hostname: "::1", port: 0 });
const { port } = listener.addr as Deno.NetAddr;

async function receive(): Promise<string> {
  const conn = await listener.accept();
  let text = "";
  const buf = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
    const end = text.indexOf("\r\n\r\n");
    const length = Number(text.match(/\r\ncontent-length: (\d+)/i)?.[1] ?? 0);
    if (end >= 0 && text.length >= end + 4 + length) break;
  }
  const body = '{"created":true}';
  await conn.write(
    new TextEncoder().encode(`HTTP/1.1 201 Created\r\ncontent-length: ${body.length}\r\n\r\n${body}`),
  );
  conn.close();
  return text;
}

const arrived = receive();
const res = await sendOnce({
  method: "POST",
  url: `http://[::1]:${port}/user-api/v2/delivery/info?lang=fi&q=%C3%A4`,
  headers: { "content-type": "application/json" },
  body: '{"street":"Kaivokatu 1"}',
  env: () => undefined,
});
console.log(JSON.stringify({ port, request: await arrived, status: res.status, body: await res.text() }));
listener.close();
