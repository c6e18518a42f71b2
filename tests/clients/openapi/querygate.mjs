// Starts the real querygate binary for a client test: the SQLite demo in a
// throwaway folder, on 127.0.0.1 and a free port. QG_BINARY names the binary
// (scripts/check-openapi.sh sets it); the default is the repository's build/.
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const binary = process.env.QG_BINARY ?? join(here, "..", "..", "..", "build", "querygate");

export const TOKEN = "openapi-clients-token-0123456789abcdef0123";
const TABLES = "{ projects: {}, traces: {}, spans: {} }";

// The PostgreSQL demo of the shared test cluster (QG_TEST_PG_HOST/PORT, loaded
// by scripts/test.sh), or null; with QG_REQUIRE_PG=1 its absence is an error.
export function postgresDemo() {
  const { QG_TEST_PG_HOST: host, QG_TEST_PG_PORT: port } = process.env;
  if (host && port) return `postgresql://qg_reader:qg_reader@${host}:${port}/demo`;
  if (process.env.QG_REQUIRE_PG === "1") throw new Error("QG_REQUIRE_PG=1 but QG_TEST_PG_HOST/QG_TEST_PG_PORT are unset");
  return null;
}

// keyed: an API key (TOKEN) is required, and the databases are the SQLite demo
// `demo` and, when there is one, the PostgreSQL demo `pgdemo`.
export async function startQuerygate({ keyed = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "qg-openapi-clients-"));
  let args = ["--listen", "127.0.0.1:0", "--demo-dir", join(dir, "demo")];
  if (keyed) {
    execFileSync(binary, ["demo-db", join(dir, "demo.db")], { stdio: "pipe" });
    const pg = postgresDemo();
    const sha = createHash("sha256").update(TOKEN).digest("hex");
    writeFileSync(join(dir, "querygate.yaml"), [
      "databases:",
      `  demo: { backend: sqlite, path: demo.db, tables: ${TABLES} }`,
      ...(pg ? [`  pgdemo: { backend: postgres, dsn: "${pg}", tables: ${TABLES} }`] : []),
      "keys:",
      `  - { name: agent, sha256: ${sha}, databases: [demo${pg ? ", pgdemo" : ""}] }`,
      ""].join("\n"));
    args = ["--config", join(dir, "querygate.yaml"), "--listen", "127.0.0.1:0"];
  }
  const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`querygate did not start in 60 s:\n${stderr}`)), 60_000);
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`querygate exited (${code}) before listening:\n${stderr}`));
    });
  });
  child.removeAllListeners("exit");
  return {
    url,
    // The document as a client fetches it (GET /openapi.json).
    async document(query = "") {
      const r = await fetch(`${url}/openapi.json${query}`);
      if (r.status !== 200) throw new Error(`GET /openapi.json${query}: ${r.status}`);
      return r.json();
    },
    // The oracle: the same request sent directly, without any client library.
    async direct(method, path, body) {
      const r = await fetch(url + path, {
        method,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(keyed ? { authorization: `Bearer ${TOKEN}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, text, json: r.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : undefined };
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The agent operations the document must carry, read from the document itself
// and checked against the route table's fixed facts by the C++ tests.
// The demo's agent operations: SQL, schema, and its three curated tools (config/demo.yaml `tools:`).
export const AGENT_OPERATIONS = {
  "/v1/query": "post",
  "/v1/schema": "get",
  "/v1/tools/cost_by_model": "post",
  "/v1/tools/error_rate_by_project": "post",
  "/v1/tools/slowest_traces": "post",
  "/v1/write/save_annotation": "post", // the demo's write tool (config/demo.yaml `writes:`)
};

// The demo's write tool: a verdict on a real LLM span (read through the SQL
// route) and one it refuses (no such span: write:unknown-reference with a FIX).
export const WRITE_PATH = "/v1/write/save_annotation";
export async function verdicts(gw) {
  const r = await gw.direct("POST", "/v1/query", { sql: "SELECT min(id) AS id FROM spans WHERE kind = 'LLM'" });
  if (r.status !== 200) throw new Error(`no LLM span: ${r.text}`);
  const ok = { span_id: r.json.rows[0][0], label: "incorrect", score: 0.25 };
  return { ok, refused: { ...ok, span_id: -1 } };
}
export const QUERY_OK = { sql: "SELECT count(*) AS n FROM spans" };
export const QUERY_REFUSED = { sql: "SELECT cost_ust FROM spans" }; // a misspelt column: 422 with a FIX

// The input names an operation takes: its parameters and its JSON body's properties.
export function operationInputs(doc, path, method) {
  const op = doc.paths[path][method];
  const names = (op.parameters ?? []).map((p) => p.name);
  const body = op.requestBody?.content?.["application/json"]?.schema;
  if (body) names.push(...Object.keys(resolve(doc, body).properties));
  return names.sort();
}

export function resolve(doc, schema) {
  while (schema.$ref) schema = schema.$ref.slice(2).split("/").reduce((o, k) => o[k], doc);
  return schema;
}

export const packageJson = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
