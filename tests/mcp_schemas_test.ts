/**
 * The JSON Schemas of the catalogue as an agent relies on them: every input and output schema
 * compiles under strict JSON Schema 2020-12 (Ajv 2020 in strict mode, from the MCP SDK's own
 * dependencies) and is self-contained (local `$defs` only); every tool has a title; every input
 * property says what it takes; inputs refuse unknown keys; outputs say which fields are always
 * present; no object is left without a shape; money is one Money shape everywhere.
 */

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import { type ListedTool, listing } from "../src/mcp/catalogue.ts";
import { selectTools } from "../src/mcp/inventory.ts";

type Node = Record<string, unknown>;

/** Ajv's 2020-12 build, resolved from where the SDK resolves its own `ajv` (no new dependency). */
function strictValidator() {
  const require = createRequire(import.meta.resolve("@modelcontextprotocol/sdk/validation/ajv-provider.js"));
  const mod = require("ajv/dist/2020");
  const Ajv2020 = mod.default ?? mod;
  // strict: unknown keywords, ignored keywords, `required` naming undeclared properties and keywords
  // applied to the wrong type all throw. Nullable types are `type: [t, "null"]`, a union.
  return new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
}

/**
 * The catalogue from the tools' zod schemas (tests/mcp_catalogue_test.ts checks that the server serves
 * exactly this, from src/mcp/catalogue.gen.ts).
 */
const tools: ListedTool[] = listing(await selectTools());
const listed = (): ListedTool[] => structuredClone(tools);
/** Every subschema of a schema with its path (properties, items, anyOf, $defs, additionalProperties). */
function* nodes(n: unknown, path: string): Generator<[Node, string]> {
  if (!n || typeof n !== "object" || Array.isArray(n)) return;
  const node = n as Node;
  yield [node, path];
  for (const [k, v] of Object.entries((node.properties ?? {}) as Node)) yield* nodes(v, `${path}.${k}`);
  for (const [k, v] of Object.entries((node.$defs ?? {}) as Node)) yield* nodes(v, `${path}.$defs.${k}`);
  if (node.items) yield* nodes(node.items, `${path}[]`);
  if (Array.isArray(node.anyOf)) {
    for (const [i, v] of node.anyOf.entries()) {
      yield* nodes(v, `${path}|${i}`);
    }
  }
  if (node.additionalProperties && typeof node.additionalProperties === "object") {
    yield* nodes(node.additionalProperties, `${path}.*`);
  }
}

const isObjectType = (n: Node) => n.type === "object" || (Array.isArray(n.type) && n.type.includes("object"));

/** The referenced definition when a node is a local `$ref`. */
function deref(n: Node, root: Node): Node {
  if (typeof n.$ref !== "string") return n;
  const name = n.$ref.replace(/^#\/\$defs\//, "");
  return ((root.$defs ?? {}) as Record<string, Node>)[name];
}

const MONEY = {
  type: ["object", "null"],
  properties: {
    amount: { type: "integer" },
    currency: { type: ["string", "null"] },
    formatted: { type: ["string", "null"] },
  },
  required: ["amount", "currency", "formatted"],
};

Deno.test("every input and output schema compiles under strict JSON Schema 2020-12 and is self-contained", () => {
  const ajv = strictValidator();
  assert.equal(tools.length, 30);
  let compiled = 0;
  for (const t of tools) {
    for (const [io, schema] of [["input", t.inputSchema], ["output", t.outputSchema]] as const) {
      assert.doesNotThrow(() => ajv.compile(schema), `${t.name} ${io}Schema under strict 2020-12`);
      compiled++;
      // Local references only: each schema resolves on its own (no cross-tool or remote $ref).
      for (const [n, path] of nodes(schema, `${t.name}.${io}`)) {
        if (n.$ref === undefined) continue;
        assert.match(String(n.$ref), /^#\/\$defs\/[A-Za-z]+$/, `${path}: a local $ref`);
        assert.ok(deref(n, schema), `${path}: ${n.$ref} is defined in the same schema`);
      }
      assert.equal(schema.$schema, undefined, `${t.name}: no $schema (clients use their default dialect)`);
    }
  }
  assert.equal(compiled, 60);
  // The strict validator does bite: an unknown keyword and a `required` naming nothing both throw.
  assert.throws(() => ajv.compile({ type: "object", properties: {}, requird: ["a"] }), /unknown keyword/);
  assert.throws(() => ajv.compile({ type: "object", properties: {}, required: ["a"] }), /required/);
});

/** Property names that hold money: each is the one Money shape (option prices included). */
const MONEY_NAME = /^(price|payable|order_minimum|fixed_fee|items_subtotal)$|_(price|fee|total)$/;

/** What breaks the rules an agent relies on, in one tool's entry (empty: none). */
function violations(t: ListedTool): string[] {
  const found: string[] = [];
  if (!t.title || t.title.length > 30) found.push(`${t.name}: no short title`);
  for (const [n, path] of nodes(t.inputSchema, "input")) {
    // Each argument (and each field of an argument's objects) says what it takes; list entries and
    // anyOf branches share their property's description.
    if (
      path !== "input" && !/(\|\d+|\[\])$/.test(path) && !(typeof n.description === "string" && n.description)
    ) {
      found.push(`undescribed ${path}`);
    }
    if (isObjectType(n) && n.additionalProperties !== false) found.push(`open ${path}`);
  }
  for (const [n, path] of nodes(t.outputSchema, "output")) {
    const name = path.split(".").at(-1)!;
    const breakdown = t.name === "svc_checkout_preview" && path === "output.price"; // the price explained
    if (
      MONEY_NAME.test(name) && !breakdown && !path.includes("$defs") &&
      !isDeepStrictEqual(deref(n, t.outputSchema), MONEY)
    ) {
      found.push(`not Money ${path}`);
    }
    if (!isObjectType(n)) continue;
    const props = Object.keys((n.properties ?? {}) as Node);
    if (props.length) {
      const required = (n.required ?? []) as string[];
      if (!required.length) found.push(`no required ${path}`);
      for (const r of required) if (!props.includes(r)) found.push(`undeclared required ${path}.${r}`);
      if (
        ["amount", "currency", "formatted"].every((k) => props.includes(k)) && !isDeepStrictEqual(n, MONEY)
      ) {
        found.push(`another money shape ${path}`);
      }
    } else if (n.additionalProperties !== true || typeof n.description !== "string") {
      // Not a bare {"type":"object"}: an opaque map says so (additionalProperties true) and what it holds.
      found.push(`bare ${path}`);
    }
  }
  return found;
}

Deno.test("schema rules: titles, described inputs that refuse unknown keys, required outputs, no bare objects, one Money", () => {
  assert.equal(tools.length, 30);
  assert.equal(new Set(tools.map((t) => t.title)).size, tools.length, "distinct titles");
  for (const t of tools) assert.deepEqual(violations(t), [], t.name);
  // The rules see every part: 152 arguments described, every result object with required fields.
  const args = tools.flatMap((t) => Object.keys((t.inputSchema.properties ?? {}) as Node));
  assert.equal(args.length, 153);
});

Deno.test("the rules catch what they protect: a bare object, an undescribed or open input, no required, a bare price", () => {
  const preview = () => listed().find((x) => x.name === "svc_checkout_preview")!;
  const out = (t: ListedTool) => t.outputSchema as Node & { properties: Record<string, Node>; $defs: Node };
  const inp = (t: ListedTool) => t.inputSchema as Node & { properties: Record<string, Node> };
  const broken = (mutate: (t: ListedTool) => void) => {
    const t = preview();
    mutate(t);
    return violations(t);
  };
  assert.deepEqual(broken(() => {}), []);
  assert.deepEqual(
    broken((t) => (out(t).properties.delivery_configs = { type: "array", items: { type: "object" } })),
    ["bare output.delivery_configs[]"],
  );
  assert.deepEqual(broken((t) => delete inp(t).properties.tip.description), ["undescribed input.tip"]);
  assert.deepEqual(broken((t) => delete inp(t).additionalProperties), ["open input"]);
  assert.deepEqual(broken((t) => delete out(t).required), ["no required output"]);
  assert.deepEqual(broken((t) => (t.title = "")), ["svc_checkout_preview: no short title"]);
  assert.deepEqual(
    broken((t) => {
      const configs = out(t).properties.delivery_configs as { items: { properties: Record<string, Node> } };
      configs.items.properties.price = { type: ["integer", "null"] };
    }),
    ["not Money output.delivery_configs[].price"],
  );
});
