/**
 * The CDP client (src/login/cdp.ts) against a scripted WebSocket peer on 127.0.0.1: replies, error
 * replies, unexpected and malformed messages, unknown ids, a socket closed mid-call, silence.
 * Silence is made deterministic: a peer that never answers, or answers a call only after the
 * client has moved on to the next one.
 */

import assert from "node:assert/strict";
import { CdpClient, CdpError, devtoolsHttp } from "../src/login/cdp.ts";

type Msg = { id: number; method: string; params: Record<string, unknown>; sessionId?: string };

interface Peer {
  url: string;
  httpBase: string;
  /** Messages the peer received, parsed. */
  received: Msg[];
  close(): Promise<void>;
}

/** A WebSocket peer whose `onMessage` script answers (or not) each parsed client message. */
function peer(onMessage: (ws: WebSocket, msg: Msg) => void, onOpen?: (ws: WebSocket) => void): Peer {
  const received: Msg[] = [];
  const sockets: WebSocket[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("no", { status: 400 });
    const { socket, response } = Deno.upgradeWebSocket(req);
    sockets.push(socket);
    socket.onopen = () => onOpen?.(socket);
    socket.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data)) as Msg;
      received.push(msg);
      onMessage(socket, msg);
    };
    return response;
  });
  const httpBase = `http://127.0.0.1:${server.addr.port}`;
  return {
    url: `ws://127.0.0.1:${server.addr.port}/devtools/browser/test`,
    httpBase,
    received,
    close: async () => {
      for (const s of sockets) {
        if (s.readyState === WebSocket.OPEN) s.close();
      }
      await server.shutdown();
    },
  };
}

const reply = (ws: WebSocket, id: number, result: unknown) => ws.send(JSON.stringify({ id, result }));

async function rejectsWith(p: Promise<unknown>, kind: CdpError["kind"], message?: RegExp): Promise<CdpError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof CdpError, `expected a CdpError, got ${e}`);
    assert.equal(e.kind, kind, e.message);
    if (message) assert.match(e.message, message);
    return e;
  }
  throw new Error(`expected a ${kind} error, but it resolved`);
}

Deno.test("cdp: numbered commands resolve with their result; sessionId and params are sent", async () => {
  const p = peer((ws, m) => reply(ws, m.id, { echo: m.method, n: m.id }));
  const cdp = await CdpClient.connect(p.url);
  try {
    assert.deepEqual(await cdp.send("Target.getTargets"), { echo: "Target.getTargets", n: 1 });
    assert.deepEqual(await cdp.send("Page.navigate", { url: "about:blank" }, { sessionId: "S1" }), {
      echo: "Page.navigate",
      n: 2,
    });
    // Two calls in flight are matched by id, not by order.
    const [a, b] = await Promise.all([cdp.send("A.one"), cdp.send("B.two")]);
    assert.deepEqual([a.echo, b.echo], ["A.one", "B.two"]);
    assert.deepEqual(p.received.map((m) => m.id), [1, 2, 3, 4]);
    assert.deepEqual(p.received[1], {
      id: 2,
      method: "Page.navigate",
      params: { url: "about:blank" },
      sessionId: "S1",
    });
    assert.equal("sessionId" in p.received[0], false);
  } finally {
    cdp.close();
    await cdp.done;
    await p.close();
  }
});

Deno.test("cdp: an error reply rejects with kind protocol, the CDP code and the method name", async () => {
  const p = peer((ws, m) => {
    if (m.method === "Nope.missing") {
      ws.send(JSON.stringify({ id: m.id, error: { code: -32601, message: "'Nope.missing' wasn't found" } }));
    } else if (m.method === "Weird.error") {
      ws.send(JSON.stringify({ id: m.id, error: { nothing: true } }));
    } else reply(ws, m.id, null);
  });
  const cdp = await CdpClient.connect(p.url);
  try {
    const e = await rejectsWith(
      cdp.send("Nope.missing"),
      "protocol",
      /Nope\.missing failed: 'Nope\.missing' wasn't found/,
    );
    assert.equal(e.cdpCode, -32601);
    const weird = await rejectsWith(cdp.send("Weird.error"), "protocol", /unknown error/);
    assert.equal(weird.cdpCode, undefined);
    // A null result is an empty object, and the client still works after errors.
    assert.deepEqual(await cdp.send("Fine.call"), {});
    assert.equal(cdp.closed, false);
  } finally {
    cdp.close();
    await cdp.done;
    await p.close();
  }
});

Deno.test("cdp: unexpected, malformed and unknown-id messages are ignored; events reach listeners", async () => {
  const p = peer((ws, m) => {
    ws.send("this is not JSON");
    ws.send("[1,2,3]");
    ws.send("null");
    ws.send("42");
    ws.send(new Uint8Array([1, 2, 3])); // a binary frame
    ws.send(JSON.stringify({ id: 9999, result: { stray: true } })); // an id nobody asked for
    ws.send(JSON.stringify({ id: String(m.id), result: { wrong: "string id" } }));
    ws.send(JSON.stringify({ method: "Target.targetCreated", params: { targetInfo: { type: "page" } } }));
    ws.send(JSON.stringify({ method: "Page.loadEventFired", params: "not an object", sessionId: "S9" }));
    ws.send(JSON.stringify({ method: 7 }));
    reply(ws, m.id, { ok: m.method });
  });
  const cdp = await CdpClient.connect(p.url);
  try {
    const events: Array<[string, unknown, string | undefined]> = [];
    const off = cdp.on("Target.targetCreated", (params, s) => events.push(["created", params, s]));
    cdp.on("Target.targetCreated", () => {
      throw new Error("a failing listener does not stop the others");
    });
    cdp.on("Page.loadEventFired", (params, s) => events.push(["load", params, s]));
    const loaded = cdp.waitFor("Page.loadEventFired", (_p, s) => s === "S9");
    assert.deepEqual(await cdp.send("First.call"), { ok: "First.call" });
    assert.deepEqual(await loaded, {});
    assert.deepEqual(events, [
      ["created", { targetInfo: { type: "page" } }, undefined],
      ["load", {}, "S9"],
    ]);
    off();
    assert.deepEqual(await cdp.send("Second.call"), { ok: "Second.call" });
    assert.equal(
      events.filter((e) => e[0] === "created").length,
      1,
      "unsubscribed listener got nothing more",
    );
    assert.equal(cdp.closed, false);
  } finally {
    cdp.close();
    await cdp.done;
    await p.close();
  }
});

Deno.test("cdp: the socket closing mid-call rejects pending calls and waits with kind closed", async () => {
  const p = peer((ws, m) => {
    if (m.method === "Browser.close") ws.close();
    else reply(ws, m.id, {});
  });
  const cdp = await CdpClient.connect(p.url);
  try {
    await cdp.send("Before.close");
    const waiting = cdp.waitFor("Never.happens", () => true, 60_000);
    const pending = cdp.send("Browser.close", {}, { timeoutMs: 60_000 });
    await rejectsWith(pending, "closed", /Browser\.close/);
    await rejectsWith(waiting, "closed");
    await cdp.done;
    assert.equal(cdp.closed, true);
    // Later calls fail at once, without sending anything.
    const sent = p.received.length;
    await rejectsWith(cdp.send("After.close"), "closed");
    await rejectsWith(cdp.waitFor("Any.event"), "closed");
    assert.equal(p.received.length, sent);
  } finally {
    cdp.close();
    await p.close();
  }
});

Deno.test("cdp: close() rejects what is in flight and is idempotent", async () => {
  const p = peer(() => {/* never answers */});
  const cdp = await CdpClient.connect(p.url);
  try {
    const pending = cdp.send("Slow.call", {}, { timeoutMs: 60_000 });
    cdp.close();
    cdp.close();
    await rejectsWith(pending, "closed", /Slow\.call/);
    await cdp.done;
    assert.equal(cdp.closed, true);
  } finally {
    await p.close();
  }
});

Deno.test("cdp: a call without an answer times out; a late answer is ignored", async () => {
  // The peer answers call 1 only when call 2 arrives, i.e. after the client gave up on call 1.
  const p = peer((ws, m) => {
    if (m.id === 1) return;
    if (m.id === 2) reply(ws, 1, { late: true });
    reply(ws, m.id, { n: m.id });
  });
  const cdp = await CdpClient.connect(p.url, { timeoutMs: 300 });
  try {
    assert.equal(cdp.defaultTimeoutMs, 300);
    await rejectsWith(cdp.send("Silent.call"), "timeout", /Silent\.call got no answer within 300 ms/);
    assert.deepEqual(await cdp.send("Next.call", {}, { timeoutMs: 60_000 }), { n: 2 });
    await rejectsWith(cdp.waitFor("No.event", () => true, 200), "timeout", /no No\.event within 200 ms/);
    assert.equal(cdp.closed, false, "timeouts do not close the socket");
  } finally {
    cdp.close();
    await cdp.done;
    await p.close();
  }
});

Deno.test("cdp: waitFor resolves with the first event that matches", async () => {
  const p = peer(
    (ws, m) => {
      for (const id of ["a", "b", "c"]) {
        ws.send(JSON.stringify({ method: "Target.attachedToTarget", params: { id }, sessionId: id }));
      }
      reply(ws, m.id, {});
    },
  );
  const cdp = await CdpClient.connect(p.url);
  try {
    const b = cdp.waitFor("Target.attachedToTarget", (params) => params.id === "b");
    await cdp.send("Go");
    assert.deepEqual(await b, { id: "b" });
  } finally {
    cdp.close();
    await cdp.done;
    await p.close();
  }
});

Deno.test("cdp: connect fails with kind connect (nobody listening, upgrade refused) or timeout (no upgrade answer)", async () => {
  // A port that was free a moment ago.
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const freePort = (l.addr as Deno.NetAddr).port;
  l.close();
  await rejectsWith(CdpClient.connect(`ws://127.0.0.1:${freePort}/devtools/browser/x`), "connect");
  await rejectsWith(CdpClient.connect("not a url"), "connect", /cannot open the DevTools socket/);

  // An HTTP server that refuses the upgrade (a 400 instead of 101).
  const refusing = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("no", { status: 400 }),
  );
  try {
    await rejectsWith(CdpClient.connect(`ws://127.0.0.1:${refusing.addr.port}/x`), "connect");
  } finally {
    await refusing.shutdown();
  }

  let release!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  const silent = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await hold;
    return new Response("late", { status: 503 });
  });
  try {
    await rejectsWith(
      CdpClient.connect(`ws://127.0.0.1:${silent.addr.port}/devtools/browser/x`, { timeoutMs: 300 }),
      "timeout",
      /did not open within 300 ms/,
    );
  } finally {
    release();
    await silent.shutdown();
  }
});

Deno.test("devtoolsHttp: JSON answers; http errors, non-JSON, unreachable and silent endpoints", async () => {
  let release!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  const methods: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    methods.push(`${req.method} ${path}`);
    if (path === "/json/version") return Response.json({ Browser: "Scripted/1.0" });
    if (path === "/json/new") return Response.json({ id: "T1" });
    if (path === "/html") return new Response("<html>", { status: 200 });
    if (path === "/hang") await hold;
    if (path === "/stall") {
      // Headers and a first chunk, then nothing more.
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"Browser":'));
          hold.then(() => c.close());
        },
      });
      return new Response(body, { headers: { "content-type": "application/json" } });
    }
    return new Response("missing", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}/`;
  try {
    assert.deepEqual(await devtoolsHttp(base, "/json/version"), { Browser: "Scripted/1.0" });
    assert.deepEqual(await devtoolsHttp(base, "/json/new", { method: "PUT" }), { id: "T1" });
    const e404 = await rejectsWith(devtoolsHttp(base, "/json/missing"), "http", /answered 404/);
    assert.equal(e404.cdpCode, undefined);
    await rejectsWith(devtoolsHttp(base, "/html"), "http", /did not answer JSON/);
    await rejectsWith(devtoolsHttp(base, "/hang", { timeoutMs: 300 }), "timeout", /no answer within 300 ms/);
    await rejectsWith(devtoolsHttp(base, "/stall", { timeoutMs: 300 }), "timeout", /no answer within 300 ms/);
    assert.deepEqual(methods.slice(0, 2), ["GET /json/version", "PUT /json/new"]);
  } finally {
    release();
    await server.shutdown();
  }
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const freePort = (l.addr as Deno.NetAddr).port;
  l.close();
  await rejectsWith(
    devtoolsHttp(`http://127.0.0.1:${freePort}`, "/json/version"),
    "connect",
    /not reachable/,
  );
});
