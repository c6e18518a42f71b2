// OpenAPI-to-MCP converters: @ivotoby/openapi-mcp-server (a generic MCP server
// fed the document) and openapi-mcp-generator (generates an MCP server
// project). Each must produce exactly the agent tools, under names that keep
// the operationId's words, calling the base URL the document gives.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import ts from "typescript";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { getToolsFromOpenApi } from "openapi-mcp-generator/dist/api.js";
import { startQuerygate, AGENT_OPERATIONS, QUERY_OK, QUERY_REFUSED, WRITE_PATH, verdicts, operationInputs } from "./querygate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
let gw, doc, operationIds;
before(async () => {
  gw = await startQuerygate();
  doc = await gw.document();
  // SQL, schema and the demo's curated tools.
  operationIds = Object.entries(AGENT_OPERATIONS).map(([p, m]) => doc.paths[p][m].operationId);
});
after(() => gw?.stop());

test("openapi-mcp-generator: exactly the agent tools, named by operationId, base URL from the document", async () => {
  const tools = await getToolsFromOpenApi(`${gw.url}/openapi.json`, { dereference: true }); // as its CLI does
  assert.deepEqual(tools.map((t) => t.name).sort(), [...operationIds].sort());
  for (const t of tools) {
    assert.equal(t.baseUrl, doc.servers[0].url, `${t.name}: base URL`);
    const { requestBody, ...params } = t.inputSchema.properties;
    const inputs = [...Object.keys(params), ...Object.keys(requestBody?.properties ?? {})].sort();
    assert.deepEqual(inputs, operationInputs(doc, t.pathTemplate, t.method), `${t.name}: every parameter`);
  }
  // The CLI, as a developer runs it: a project whose server calls the document's URL.
  const out = join(here, "generated", "mcp-generator");
  rmSync(out, { recursive: true, force: true });
  execFileSync(process.execPath, [join(here, "node_modules", "openapi-mcp-generator", "bin", "openapi-mcp-generator.js"),
    "--input", `${gw.url}/openapi.json`, "--output", out, "--force"], { encoding: "utf8", stdio: "pipe" });
  const source = readFileSync(join(out, "src", "index.ts"), "utf8");
  assert.ok(source.includes(JSON.stringify(doc.servers[0].url)) || source.includes(`'${doc.servers[0].url}'`), "base URL in the generated server");
  for (const id of operationIds) assert.ok(source.includes(`"${id}"`) || source.includes(`'${id}'`), id);
  for (const path of ["/healthz", "/readyz", "/metrics", "/openapi.json"]) assert.ok(!source.includes(`"${path}"`), `${path} is not a tool`);

  // Run the generated server (transpiled; its imports resolve to this
  // package's pinned node_modules) and call both tools through MCP.
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  mkdirSync(join(out, "build"), { recursive: true });
  writeFileSync(join(out, "build", "index.js"), js.outputText);
  const client = new Client({ name: "querygate-openapi-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(out, "build", "index.js")], cwd: out, stderr: "pipe" }));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...operationIds].sort());
    const run = doc.paths["/v1/query"].post.operationId;
    const ran = await client.callTool({ name: run, arguments: { requestBody: QUERY_OK } });
    assert.notEqual(ran.isError, true, JSON.stringify(ran));
    assert.deepEqual(JSON.parse(ran.content[0].text.slice(ran.content[0].text.indexOf("{"))), (await gw.direct("POST", "/v1/query", QUERY_OK)).json);
    const described = await client.callTool({ name: doc.paths["/v1/schema"].get.operationId, arguments: { detail: "brief" } });
    assert.ok(described.content[0].text.includes((await gw.direct("GET", "/v1/schema?detail=brief")).text.split("\n")[0]));
    // The generated server cuts a refusal's body at 200 characters (and does
    // not set isError), but passes the status line whole: the reason phrase
    // carries the code, the message and the whole fix.
    const refused = await client.callTool({ name: run, arguments: { requestBody: QUERY_REFUSED } });
    const oracle = (await gw.direct("POST", "/v1/query", QUERY_REFUSED)).json.error;
    for (const part of [oracle.code, oracle.message, oracle.fix]) assert.ok(refused.content[0].text.includes(part), refused.content[0].text);
    // The write tool through the generated server: a repeat is already_exists; a refusal keeps its fix.
    const { ok, refused: wrong } = await verdicts(gw);
    const first = await gw.direct("POST", WRITE_PATH, ok);
    assert.ok(first.status === 201 || first.status === 200, first.text);
    const again = await client.callTool({ name: "save_annotation", arguments: { requestBody: ok } });
    assert.notEqual(again.isError, true, JSON.stringify(again));
    const againText = again.content[0].text;
    assert.deepEqual(JSON.parse(againText.slice(againText.indexOf("{"))), (await gw.direct("POST", WRITE_PATH, ok)).json);
    const wrongOracle = (await gw.direct("POST", WRITE_PATH, wrong)).json.error;
    const refusedWrite = await client.callTool({ name: "save_annotation", arguments: { requestBody: wrong } });
    for (const part of [wrongOracle.code, wrongOracle.message, wrongOracle.fix])
      assert.ok(refusedWrite.content[0].text.includes(part), refusedWrite.content[0].text);
  } finally {
    await client.close();
  }
});

test("@ivotoby/openapi-mcp-server: exactly the agent tools, names keep their words; both call the gateway", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(here, "node_modules", "@ivotoby", "openapi-mcp-server", "bin", "mcp-server.js"),
      "--openapi-spec", `${gw.url}/openapi.json`, "--api-base-url", doc.servers[0].url],
    stderr: "pipe",
  });
  const client = new Client({ name: "querygate-openapi-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    // It lower-cases and hyphenates: run_sql -> run-sql (it would drop a word such as "execute").
    assert.deepEqual(tools.map((t) => t.name).sort(), operationIds.map((id) => id.replaceAll("_", "-")).sort());
    const byPath = Object.fromEntries(tools.map((t) => [t.name, t]));
    const run = byPath[doc.paths["/v1/query"].post.operationId.replaceAll("_", "-")];
    const describe = byPath[doc.paths["/v1/schema"].get.operationId.replaceAll("_", "-")];
    for (const name of operationInputs(doc, "/v1/schema", "get")) assert.ok(name in describe.inputSchema.properties, name);

    const ran = await client.callTool({ name: run.name, arguments: QUERY_OK });
    assert.notEqual(ran.isError, true, JSON.stringify(ran));
    assert.deepEqual(JSON.parse(ran.content[0].text), (await gw.direct("POST", "/v1/query", QUERY_OK)).json);
    const described = await client.callTool({ name: describe.name, arguments: { detail: "brief" } });
    // It hands a text/plain answer on as a JSON string.
    assert.equal(JSON.parse(described.content[0].text), (await gw.direct("GET", "/v1/schema?detail=brief")).text);
    const refused = await client.callTool({ name: run.name, arguments: QUERY_REFUSED });
    const oracle = (await gw.direct("POST", "/v1/query", QUERY_REFUSED)).json;
    assert.equal(refused.isError, true, JSON.stringify(refused));
    assert.ok(refused.content[0].text.includes(oracle.error.fix), refused.content[0].text);
    // The write tool: a repeat is answered already_exists (not an error); a refusal carries its fix.
    const { ok, refused: wrong } = await verdicts(gw);
    const first = await gw.direct("POST", WRITE_PATH, ok);
    assert.ok(first.status === 201 || first.status === 200, first.text);
    const again = await client.callTool({ name: "save-annotation", arguments: ok });
    assert.notEqual(again.isError, true, JSON.stringify(again));
    assert.deepEqual(JSON.parse(again.content[0].text), (await gw.direct("POST", WRITE_PATH, ok)).json);
    const wrongOracle = (await gw.direct("POST", WRITE_PATH, wrong)).json;
    const refusedWrite = await client.callTool({ name: "save-annotation", arguments: wrong });
    assert.equal(refusedWrite.isError, true, JSON.stringify(refusedWrite));
    assert.ok(refusedWrite.content[0].text.includes(wrongOracle.error.fix), refusedWrite.content[0].text);
  } finally {
    await client.close();
  }
});
