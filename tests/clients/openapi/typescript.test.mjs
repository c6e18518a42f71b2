// openapi-typescript generates types from the served document; every example
// the document carries must compile against them (tsc --strict), and
// openapi-fetch, typed by them, calls both agent operations.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { startQuerygate, QUERY_OK, QUERY_REFUSED } from "./querygate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "generated", "typescript");
const tsc = join(here, "node_modules", "typescript", "bin", "tsc");

let gw, doc;
before(async () => {
  gw = await startQuerygate();
  doc = await gw.document();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
});
after(() => gw?.stop());

test("openapi-typescript: the document's examples compile; openapi-fetch calls both operations", async () => {
  writeFileSync(join(out, "schema.ts"), astToString(await openapiTS(structuredClone(doc))));
  const lines = ['import type { components } from "./schema.js";', 'import createClient from "openapi-fetch";', 'import type { paths } from "./schema.js";'];
  let examples = 0;
  for (const [name, schema] of Object.entries(doc.components.schemas))
    for (const example of schema.examples ?? []) {
      lines.push(`export const example${examples++}: components["schemas"][${JSON.stringify(name)}] = ${JSON.stringify(example)};`);
    }
  assert.ok(examples >= 3, "the request, result and error examples");
  lines.push(`
const client = createClient<paths>({ baseUrl: ${JSON.stringify(doc.servers[0].url)} });
export async function run(): Promise<object> {
  const ran = await client.POST("/v1/query", { body: ${JSON.stringify(QUERY_OK)} });
  const rows: components["schemas"]["QueryResult"] | undefined = ran.data;
  const refused = await client.POST("/v1/query", { body: ${JSON.stringify(QUERY_REFUSED)} });
  const fix: string | undefined = refused.error?.error.fix;
  const described = await client.GET("/v1/schema", { params: { query: { detail: "brief" } }, parseAs: "text" });
  return { rows, status: refused.response.status, error: refused.error, fix, schema: described.data };
}`);
  writeFileSync(join(out, "client.ts"), lines.join("\n") + "\n");
  writeFileSync(join(out, "package.json"), '{"type": "module"}\n');
  try {
    execFileSync(process.execPath, [tsc, "--strict", "--noUncheckedIndexedAccess", "--target", "es2022", "--module", "nodenext",
      "--moduleResolution", "nodenext", "--skipLibCheck", "--outDir", join(out, "js"), join(out, "client.ts")], { encoding: "utf8" });
  } catch (e) {
    assert.fail(`tsc rejected the generated types or the document's examples:\n${e.stdout}${e.stderr}`);
  }
  writeFileSync(join(out, "js", "package.json"), '{"type": "module"}\n');
  const { run } = await import(join(out, "js", "client.js"));
  const got = await run();
  assert.deepEqual(got.rows, (await gw.direct("POST", "/v1/query", QUERY_OK)).json);
  const oracle = (await gw.direct("POST", "/v1/query", QUERY_REFUSED)).json;
  assert.equal(got.status, 422);
  assert.deepEqual(got.error, oracle);
  assert.equal(got.fix, oracle.error.fix);
  assert.equal(got.schema, (await gw.direct("GET", "/v1/schema?detail=brief")).text);
});
