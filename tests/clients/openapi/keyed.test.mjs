// With API keys and several databases (the SQLite demo and, with the test
// cluster, the PostgreSQL demo): the document requires the Bearer key and a
// database; the importers keep both, send the key they are given, and answer
// as the gateway does on each backend.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as v6 from "@samchon/openapi";
import { startQuerygate, postgresDemo, TOKEN, QUERY_REFUSED } from "./querygate.mjs";

const dist = new URL("./node_modules/@langchain/classic/dist/", import.meta.url);
const { OpenAPISpec } = await import(new URL("util/openapi.js", dist));
const { convertOpenAPISpecToOpenAIFunctions } = await import(new URL("chains/openai_functions/openapi.js", dist));

const databases = postgresDemo() ? ["demo", "pgdemo"] : ["demo"];
const auth = { Authorization: `Bearer ${TOKEN}` };
let gw, doc;
before(async () => {
  gw = await startQuerygate({ keyed: true });
  doc = await gw.document();
});
after(() => gw?.stop());

test("the document requires the key and, with several databases, a database", () => {
  for (const [path, method] of [["/v1/query", "post"], ["/v1/schema", "get"]])
    assert.deepEqual(doc.paths[path][method].security, [{ apiKey: [] }], path);
  assert.equal(doc.components.securitySchemes.apiKey.scheme, "bearer");
  if (databases.length > 1) {
    assert.deepEqual(doc.components.schemas.QueryRequest.required, ["sql", "database"]);
    assert.equal(doc.paths["/v1/schema"].get.parameters.find((p) => p.name === "database").required, true);
  }
});

test("samchon: with the key, the same answers as the gateway on every database; without it, 401", async () => {
  const application = v6.HttpLlm.application({ document: v6.OpenApi.convert(structuredClone(doc)) });
  assert.deepEqual(application.errors, []);
  const query = application.functions.find((f) => f.path === "/v1/query");
  const connection = { host: doc.servers[0].url, headers: auth };
  for (const database of databases) {
    const body = { sql: "SELECT count(*) AS n FROM spans", database };
    const got = await v6.HttpLlm.execute({ application, function: query, connection, input: { body } });
    assert.deepEqual(got, (await gw.direct("POST", "/v1/query", body)).json, database);
    const refused = await v6.HttpLlm.propagate({ application, function: query, connection, input: { body: { ...QUERY_REFUSED, database } } });
    assert.equal(refused.status, 422, database);
    assert.deepEqual(refused.body, (await gw.direct("POST", "/v1/query", { ...QUERY_REFUSED, database })).json, database);
  }
  const anonymous = await v6.HttpLlm.propagate({ application, function: query, connection: { host: doc.servers[0].url },
    input: { body: { sql: "SELECT 1 AS one", database: "demo" } } });
  assert.equal(anonymous.status, 401);
  assert.match(anonymous.body.error.code, /^auth:/);
});

test("LangChain: the key from the chain's headers; every database", async () => {
  const { openAIFunctions, defaultExecutionMethod: call } = convertOpenAPISpecToOpenAIFunctions(OpenAPISpec.fromObject(structuredClone(doc)));
  assert.equal(openAIFunctions.length, 2);
  const run = doc.paths["/v1/query"].post.operationId;
  for (const database of databases) {
    const body = { sql: "SELECT count(*) AS n FROM traces", database };
    assert.equal(await call(run, { data: body }, { headers: auth }), (await gw.direct("POST", "/v1/query", body)).text, database);
  }
  assert.match(await call(run, { data: { sql: "SELECT 1 AS one", database: "demo" } }), /^401: auth:/);
});
