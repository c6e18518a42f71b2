// LangChain JS (@langchain/classic): OpenAPISpec loads the served document and
// convertOpenAPISpecToOpenAIFunctions turns it into the functions and the
// request executor createOpenAPIChain uses. (Neither is in the package's
// exports map, so they are imported from its dist folder.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startQuerygate, AGENT_OPERATIONS, QUERY_OK, QUERY_REFUSED, WRITE_PATH, verdicts, operationInputs } from "./querygate.mjs";

const dist = new URL("./node_modules/@langchain/classic/dist/", import.meta.url);
const { OpenAPISpec } = await import(new URL("util/openapi.js", dist));
const { convertOpenAPISpecToOpenAIFunctions } = await import(new URL("chains/openai_functions/openapi.js", dist));

let gw, doc, functions, call;
before(async () => {
  gw = await startQuerygate();
  doc = await gw.document();
  const spec = await OpenAPISpec.fromURL(`${gw.url}/openapi.json`);
  ({ openAIFunctions: functions, defaultExecutionMethod: call } = convertOpenAPISpecToOpenAIFunctions(spec));
});
after(() => gw?.stop());

test("LangChain loads the document: exactly the agent functions, every parameter", () => {
  const byName = Object.fromEntries(functions.map((f) => [f.name, f]));
  assert.deepEqual(Object.keys(byName).sort(), Object.entries(AGENT_OPERATIONS).map(([p, m]) => doc.paths[p][m].operationId).sort());
  const query = byName[doc.paths["/v1/query"].post.operationId];
  const schema = byName[doc.paths["/v1/schema"].get.operationId];
  assert.deepEqual(Object.keys(query.parameters.properties.data.properties).sort(), operationInputs(doc, "/v1/query", "post"));
  assert.deepEqual(Object.keys(schema.parameters.properties.params.properties).sort(), operationInputs(doc, "/v1/schema", "get"));
  for (const f of functions) assert.ok(f.description.length > 100, f.name);
});

test("LangChain calls both operations at the document's server URL", async () => {
  const rows = await call(doc.paths["/v1/query"].post.operationId, { data: QUERY_OK });
  assert.equal(rows, (await gw.direct("POST", "/v1/query", QUERY_OK)).text);
  assert.ok(JSON.parse(rows).rows[0][0] > 0);
  const text = await call(doc.paths["/v1/schema"].get.operationId, { params: { detail: "brief" } });
  assert.equal(text, (await gw.direct("GET", "/v1/schema?detail=brief")).text);
});

test("LangChain: a refusal's code, message and fix reach the model", async () => {
  // For a non-2xx answer LangChain hands the model "status: statusText ..."
  // and drops the body; querygate's reason phrase carries the error.
  const oracle = (await gw.direct("POST", "/v1/query", QUERY_REFUSED)).json.error;
  const output = await call(doc.paths["/v1/query"].post.operationId, { data: QUERY_REFUSED });
  assert.match(output, /^422: /);
  for (const part of [oracle.code, oracle.message, oracle.fix]) assert.ok(output.includes(part), `${part}\nnot in\n${output}`);
});

test("LangChain calls the write tool: a repeat is 200 already_exists; a refusal's fix reaches the model", async () => {
  const id = doc.paths[WRITE_PATH].post.operationId;
  assert.equal(id, "save_annotation");
  const { ok, refused } = await verdicts(gw);
  const first = await gw.direct("POST", WRITE_PATH, ok);
  assert.ok(first.status === 201 || first.status === 200, first.text);
  const again = JSON.parse(await call(id, { data: ok }));
  assert.equal(again.status, "already_exists");
  assert.equal(again.id, first.json.id);
  const oracle = (await gw.direct("POST", WRITE_PATH, refused)).json.error;
  assert.equal(oracle.code, "write:unknown-reference");
  const output = await call(id, { data: refused });
  assert.match(output, /^422: /);
  for (const part of [oracle.code, oracle.message, oracle.fix]) assert.ok(output.includes(part), `${part}\nnot in\n${output}`);
});
