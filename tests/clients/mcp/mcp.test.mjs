// The official MCP TypeScript SDK client and the MCP Inspector CLI against the
// real querygate binary (SQLite demo, API keys on, loopback). Run by
// scripts/test.sh after ctest: `npm ci && node --test` in this folder, with
// QG_BINARY pointing at the built binary (default: build/querygate).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.env.QG_BINARY ?? path.resolve(here, "../../../build/querygate");
const inspector = path.join(here, "node_modules/.bin/mcp-inspector");
const token = "mcp-sdk-test-token-0123456789abcdef0123456789";
const auth = { Authorization: `Bearer ${token}` };

let dir;
let server;
let base;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "qg-mcp-sdk-"));
  execFileSync(binary, ["demo-db", path.join(dir, "demo.db")]);
  const hash = execFileSync(binary, ["hash-key", token]).toString().trim();
  writeFileSync(
    path.join(dir, "querygate.yaml"),
    [
      "limits: { deadline_ms: 30000 }",
      "databases:",
      "  demo:",
      "    backend: sqlite",
      "    path: demo.db",
      "    spotlight: true",
      "    tables:",
      "      spans: {}",
      "      traces: {}",
      "      span_annotations:",
      "        columns:",
      "          explanation: { untrusted: true }",
      // The demo's write tool (config/demo.yaml): its own MCP tool.
      "writes:",
      "  save_annotation:",
      "    database: demo",
      "    table: span_annotations",
      '    description: "Record a verdict on a span (LLM judge)."',
      "    parameters:",
      `      span_id: { type: integer, references: "SELECT id FROM spans WHERE kind = 'LLM'" }`,
      "      label: { type: string, enum: [correct, incorrect, hallucination] }",
      "      score: { type: number, min: 0, max: 1 }",
      "    set:",
      `      annotator_kind: "'LLM'"`,
      `      created_at: "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')"`,
      "    duplicate_key: [span_id, annotator_kind]",
      "keys:",
      "  - name: sdk",
      `    sha256: ${hash}`,
      "    databases: [demo]",
      "    writes: [save_annotation]",
      "",
    ].join("\n"),
  );
  server = spawn(binary, ["--config", path.join(dir, "querygate.yaml"), "--listen", "127.0.0.1:0"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  base = await new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`querygate did not start: ${seen}`)), 20000);
    const look = (chunk) => {
      seen += chunk.toString();
      const m = seen.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.on("data", look);
    server.stderr.on("data", look);
    server.on("exit", (code) => reject(new Error(`querygate exited (${code}): ${seen}`)));
  });
});

after(() => {
  server?.kill("SIGTERM");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function connect(headers = auth) {
  const client = new Client({ name: "querygate-sdk-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

async function v1Query(body) {
  const r = await fetch(`${base}/v1/query`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

// The SDK validates structuredContent itself in callTool; this checks it again
// with the SDK's own validator, so a skipped validation cannot pass unnoticed.
function assertMatchesOutputSchema(tool, structured) {
  const validate = new AjvJsonSchemaValidator().getValidator(tool.outputSchema);
  const result = validate(structured);
  assert.ok(result.valid, `${tool.name}: ${result.errorMessage}\n${JSON.stringify(structured).slice(0, 500)}`);
}

test("the SDK client connects, negotiates the latest revision and lists exactly the agent tools", async () => {
  const { client, transport } = await connect();
  assert.ok(transport.sessionId, "a session id was issued");
  assert.equal(transport.protocolVersion, "2025-11-25", "the SDK's latest revision, negotiated");
  assert.equal(client.getServerVersion().name, "querygate");
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ["execute_sql", "describe_schema", "save_annotation"],
  );
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object");
    assert.equal(t.outputSchema.type, "object");
    assert.equal(t.annotations.readOnlyHint, t.name !== "save_annotation");
    assert.ok(t.description.length <= 1024, `${t.name}: description ${t.description.length} > 1024`);
    // The write tool and the others do not name each other (each stands alone in a model's tool list).
    for (const other of tools)
      if (other.name !== t.name && (t.name === "save_annotation" || other.name === "save_annotation"))
        assert.ok(!t.description.includes(other.name), `${t.name} names ${other.name}`);
    assert.ok(!JSON.stringify(t).includes("executeSql"), "tools are named by their MCP names");
  }
  await transport.terminateSession();
  await client.close();
});

test("structuredContent of every tool matches its outputSchema, success and refusal alike", async () => {
  const { client } = await connect();
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  // The schemas constrain: a wrong shape does not pass.
  for (const t of tools) {
    const validate = new AjvJsonSchemaValidator().getValidator(t.outputSchema);
    assert.equal(validate({ rows: "not rows" }).valid, false, t.name);
    assert.equal(validate({ error: { code: "no:such-code", message: "x" } }).valid, false, t.name);
  }
  const calls = [
    ["describe_schema", {}],
    ["describe_schema", { detail: "brief" }],
    ["describe_schema", { detail: "nonsense" }],
    ["execute_sql", { sql: "SELECT trace_id FROM traces ORDER BY trace_id", limit: 2 }],
    ["execute_sql", { sql: "SELECT count(*) AS n FROM spans", validate_only: true }],
    ["execute_sql", { sql: "SELECT cost_ust FROM spans" }],
    ["execute_sql", { query: "SELECT 1" }],
    ["execute_sql", { sql: "SELECT id, explanation FROM span_annotations ORDER BY id", limit: 3 }],
    ["save_annotation", { span_id: -1, label: "incorrect", score: 0.3 }],
    ["save_annotation", { span_id: 1, label: "nope", score: 0.3 }],
  ];
  for (const [name, args] of calls) {
    const result = await client.callTool({ name, arguments: args });
    assert.ok(result.structuredContent, `${name} ${JSON.stringify(args)}: structuredContent`);
    assertMatchesOutputSchema(byName[name], result.structuredContent);
    assert.equal(result.content[0].type, "text");
  }
  await client.close();
});

test("save_annotation writes once; a repeat is already_exists (not an error); a refusal is isError with its fix", async () => {
  const { client } = await connect();
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === "save_annotation");
  const span = (await v1Query({ sql: "SELECT max(id) AS id FROM spans WHERE kind = 'LLM'" })).body.rows[0][0];
  const verdict = { span_id: span, label: "incorrect", score: 0.25 };
  const first = await client.callTool({ name: "save_annotation", arguments: verdict });
  assert.equal(first.isError, false, JSON.stringify(first));
  assertMatchesOutputSchema(tool, first.structuredContent);
  assert.ok(["written", "already_exists"].includes(first.structuredContent.status));
  const again = await client.callTool({ name: "save_annotation", arguments: verdict });
  assert.equal(again.isError, false, JSON.stringify(again));
  assert.equal(again.structuredContent.status, "already_exists");
  assert.equal(again.structuredContent.id, first.structuredContent.id);
  assert.match(again.content[0].text, /continue with the next item/);
  const refused = await client.callTool({ name: "save_annotation", arguments: { ...verdict, span_id: -1 } });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.error.code, "write:unknown-reference");
  assert.match(refused.structuredContent.error.fix, /^FIX: pick one of /);
  assert.ok(refused.content[0].text.includes(refused.structuredContent.error.fix));
  await client.close();
});

test("execute_sql runs a query and answers the /v1/query envelope", async () => {
  const { client } = await connect();
  const args = { sql: "SELECT trace_id FROM traces ORDER BY trace_id", limit: 3 };
  const result = await client.callTool({ name: "execute_sql", arguments: args });
  assert.equal(result.isError, false);
  const v1 = await v1Query(args);
  assert.equal(v1.status, 200);
  assert.deepEqual(result.structuredContent, v1.body);
  assert.equal(result.structuredContent.row_count, 3);
  assert.deepEqual(JSON.parse(result.content[0].text), v1.body);
  await client.close();
});

test("a refusal is isError: true with the whole error: code, message, fix and position", async () => {
  const { client } = await connect();
  const sql = "SELECT cost_ust FROM spans";
  const result = await client.callTool({ name: "execute_sql", arguments: { sql } });
  assert.equal(result.isError, true);
  const v1 = await v1Query({ sql });
  assert.equal(v1.status, 422);
  assert.deepEqual(result.structuredContent, v1.body, "the /v1 error envelope, whole");
  const { code, fix, position } = result.structuredContent.error;
  assert.match(fix, /^FIX: /);
  assert.equal(typeof position, "number");
  const text = result.content[0].text;
  assert.ok(text.includes(code) && text.includes(fix) && text.includes(`position: byte ${position}`), text);
  await client.close();
});

test("untrusted values stay flagged, and are fenced with the spotlight markers in the text", async () => {
  const { client } = await connect();
  const result = await client.callTool({
    name: "execute_sql",
    arguments: { sql: "SELECT id, explanation FROM span_annotations WHERE explanation IS NOT NULL ORDER BY id", limit: 2 },
  });
  assert.equal(result.isError, false);
  const s = result.structuredContent;
  assert.equal(s.columns[1].untrusted, true);
  assert.ok(s.untrusted_rows.length > 0);
  const cell = s.rows[0][1];
  assert.match(cell, /^<<untrusted:[0-9a-f]{16}>>[\s\S]*<<\/untrusted:[0-9a-f]{16}>>$/);
  assert.ok(result.content[0].text.includes(JSON.stringify(cell).slice(1, -1)));
  await client.close();
});

test("without a key, the SDK client is refused (401) when keys are configured", async () => {
  // StreamableHTTPError carries the HTTP status as `code`; the body is querygate's error envelope.
  await assert.rejects(connect({}), (e) => {
    assert.equal(e.code, 401, String(e));
    assert.match(String(e), /auth:missing/);
    return true;
  });
  await assert.rejects(connect({ Authorization: "Bearer wrong-token" }), (e) => {
    assert.equal(e.code, 401, String(e));
    assert.match(String(e), /auth:invalid/);
    return true;
  });
});

test("aborting a call cancels its statement: the permit comes back long before the deadline", async () => {
  const { client } = await connect();
  const controller = new AbortController();
  const started = Date.now();
  const call = client.callTool(
    {
      name: "execute_sql",
      arguments: { sql: "SELECT count(*) AS n FROM spans AS a, spans AS b, spans AS c" },
    },
    undefined,
    { signal: controller.signal },
  );
  await new Promise((r) => setTimeout(r, 500));
  controller.abort("the test gave up");
  await assert.rejects(call);
  // notifications/cancelled reached the gateway: the one permit is free again.
  for (;;) {
    const ready = await (await fetch(`${base}/readyz`)).json();
    if (ready.admission.demo.in_use === 0) break;
    assert.ok(Date.now() - started < 10000, "still running after 10 s of a 30 s deadline");
    await new Promise((r) => setTimeout(r, 50));
  }
  // The SDK keeps the POST open and sends notifications/cancelled; the statement ends as request:cancelled.
  // (Counted as its answer leaves, just after the permit came back: poll.)
  const counted = /querygate_statements_total\{database="demo",outcome="request:cancelled"\} 1/;
  while (!counted.test(await (await fetch(`${base}/metrics`)).text())) {
    assert.ok(Date.now() - started < 10000, "the cancelled statement was not counted");
    await new Promise((r) => setTimeout(r, 50));
  }
  await client.close();
});

const inspectorArgs = (args) => [
  "--cli",
  `${base}/mcp`,
  "--transport",
  "http",
  "--header",
  `Authorization: Bearer ${token}`,
  ...args,
];
const inspectorOptions = () => ({
  encoding: "utf8",
  timeout: 60000,
  env: { ...process.env, MCP_CATALOG_PATH: path.join(dir, "catalog.json") },
});

function runInspector(args) {
  return execFileSync(inspector, inspectorArgs(args), inspectorOptions());
}

test("the MCP Inspector CLI lists the tools (strict schema check) and calls both", () => {
  const listed = JSON.parse(runInspector(["--method", "tools/list", "--strict"]));
  assert.deepEqual(
    listed.tools.map((t) => t.name),
    ["execute_sql", "describe_schema", "save_annotation"],
  );
  const ran = JSON.parse(
    runInspector(["--method", "tools/call", "--tool-name", "execute_sql", "--tool-arg", "sql=SELECT 1 AS one"]),
  );
  assert.equal(ran.isError, false);
  assert.deepEqual(ran.structuredContent.rows, [[1]]);
  const schema = JSON.parse(
    runInspector(["--method", "tools/call", "--tool-name", "describe_schema", "--tool-arg", "detail=brief"]),
  );
  assert.equal(schema.isError, false);
  assert.match(schema.structuredContent.schema, /spans/);
});

test("the MCP Inspector CLI reports a refusal as a tool error, with the whole error", () => {
  const run = spawnSync(
    inspector,
    inspectorArgs(["--method", "tools/call", "--tool-name", "execute_sql", "--tool-arg", "sql=SELECT cost_ust FROM spans"]),
    inspectorOptions(),
  );
  assert.equal(run.status, 5, `the CLI's exit status for isError: true\n${run.stdout}\n${run.stderr}`);
  const result = JSON.parse(run.stdout);
  assert.equal(result.isError, true);
  const { code, fix, position } = result.structuredContent.error;
  assert.equal(code, "validation:unknown-column");
  assert.match(fix, /^FIX: did you mean cost_usd\?/);
  assert.equal(position, 7);
  assert.ok(result.content[0].text.includes(fix));
});

test("describe_schema answers the /v1/schema text", async () => {
  const { client } = await connect();
  const result = await client.callTool({ name: "describe_schema", arguments: { detail: "brief" } });
  assert.equal(result.isError, false);
  const v1 = await fetch(`${base}/v1/schema?detail=brief`, { headers: auth });
  assert.equal(v1.status, 200);
  const text = await v1.text();
  assert.equal(result.structuredContent.schema, text);
  assert.equal(result.content[0].text, text);
  await client.close();
});
