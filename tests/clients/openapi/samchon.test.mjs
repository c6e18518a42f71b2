// @samchon/openapi, the converter behind Agentica and others: the document
// becomes LLM function-calling schemas for ChatGPT, Claude and Gemini (4.7.2,
// per model) and the universal schema (6.0.1); the functions then call the
// real gateway.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as v4 from "samchon4";
import * as v6 from "@samchon/openapi";
import { startQuerygate, AGENT_OPERATIONS, QUERY_OK, QUERY_REFUSED, WRITE_PATH, verdicts, operationInputs, resolve } from "./querygate.mjs";

let gw, doc;
before(async () => {
  gw = await startQuerygate();
  doc = await gw.document();
});
after(() => gw?.stop());

// The function's inputs with their schemas: parameters.{query,body,...}.properties, $refs resolved.
function functionInputs(fn) {
  const defs = fn.parameters.$defs ?? {};
  const deref = (s) => (s.$ref ? deref(defs[s.$ref.replace("#/$defs/", "")]) : s);
  const out = {};
  for (const group of Object.values(fn.parameters.properties)) Object.assign(out, deref(group).properties ?? {});
  return out;
}

function docInputSchemas(path, method) {
  const op = doc.paths[path][method];
  const out = {};
  for (const p of op.parameters ?? []) out[p.name] = { ...p.schema, description: p.description };
  const body = op.requestBody?.content?.["application/json"]?.schema;
  if (body) Object.assign(out, resolve(doc, body).properties);
  return out;
}

function checkApplication(app, label) {
  assert.deepEqual(app.errors.map((e) => `${e.method} ${e.path}: ${e.messages.join("; ")}`), [], `${label}: operations dropped`);
  const got = Object.fromEntries(app.functions.map((f) => [f.path, f.method]));
  assert.deepEqual(got, AGENT_OPERATIONS, `${label}: exactly the agent operations`);
  for (const fn of app.functions) {
    const op = doc.paths[fn.path][fn.method];
    assert.ok(fn.description.length <= 1024, `${label} ${fn.name}: description ${fn.description.length} > 1024`);
    assert.ok(fn.description.includes(op.description), `${label} ${fn.name}: description kept whole`);
    const inputs = functionInputs(fn);
    assert.deepEqual(Object.keys(inputs).sort(), operationInputs(doc, fn.path, fn.method), `${label} ${fn.name}: every parameter`);
    for (const [name, want] of Object.entries(docInputSchemas(fn.path, fn.method))) {
      assert.equal(inputs[name].type, want.type, `${label} ${fn.name}.${name}: type`);
      // (A parameter configured without a description, such as save_annotation's score, has none to keep.)
      if (want.description !== undefined)
        assert.ok(inputs[name].description?.includes(want.description), `${label} ${fn.name}.${name}: description kept`);
    }
  }
}

for (const model of ["chatgpt", "claude", "gemini"]) {
  test(`samchon 4.7.2 ${model}: every agent function (SQL, schema, tools, write tool), every parameter, no errors`, () => {
    const app = v4.HttpLlm.application({ model, document: v4.OpenApi.convert(structuredClone(doc)) });
    checkApplication(app, model);
  });
}

test("samchon 6.0.1 universal: every agent function, every parameter, no errors", () => {
  checkApplication(v6.HttpLlm.application({ document: v6.OpenApi.convert(structuredClone(doc)) }), "v6");
});

test("samchon: the operator routes are not in the default document, only with audience=operator", async () => {
  const operator = await gw.document("?audience=operator");
  const app = v6.HttpLlm.application({ document: v6.OpenApi.convert(operator) });
  const paths = app.functions.map((f) => f.path);
  for (const path of ["/healthz", "/readyz", "/metrics", "/openapi.json"]) assert.ok(paths.includes(path), path);
  for (const path of Object.keys(operator.paths)) assert.equal(doc.paths[path], undefined, path);
});

for (const [label, lib] of [["4.7.2 gemini", v4], ["6.0.1", v6]]) {
  test(`samchon ${label}: execute runs a real query; a refusal's fix reaches the caller intact (propagate)`, async () => {
    const document = lib.OpenApi.convert(structuredClone(doc));
    const application = lib === v4 ? v4.HttpLlm.application({ model: "gemini", document }) : v6.HttpLlm.application({ document });
    const query = application.functions.find((f) => f.path === "/v1/query");
    const schema = application.functions.find((f) => f.path === "/v1/schema");
    const connection = { host: doc.servers[0].url }; // the document's own absolute server URL
    const props = (fn, input) => ({ application, function: fn, connection, input });

    const rows = await lib.HttpLlm.execute(props(query, { body: QUERY_OK }));
    const oracle = await gw.direct("POST", "/v1/query", QUERY_OK);
    assert.equal(oracle.status, 200);
    assert.deepEqual(rows, oracle.json);
    assert.ok(rows.rows[0][0] > 0);

    // A curated tool: its arguments are the request body, its answer the gateway's.
    const tool = application.functions.find((f) => f.path === "/v1/tools/cost_by_model");
    const args = { project: "support-bot", since: "2026-11-01" };
    const cost = await lib.HttpLlm.execute(props(tool, { body: args }));
    const costOracle = await gw.direct("POST", "/v1/tools/cost_by_model", args);
    assert.equal(costOracle.status, 200);
    assert.deepEqual(cost, costOracle.json);
    assert.ok(cost.rows.length > 0);

    // The write tool: a repeat is answered 200 already_exists (not an error, so no retry), and a
    // refusal's whole envelope, fix included, reaches the caller.
    const write = application.functions.find((f) => f.path === WRITE_PATH);
    const { ok, refused: wrong } = await verdicts(gw);
    const first = await gw.direct("POST", WRITE_PATH, ok);
    assert.ok(first.status === 201 || first.status === 200, first.text);
    const again = await lib.HttpLlm.execute(props(write, { body: ok }));
    assert.equal(again.status, "already_exists");
    assert.deepEqual(again, (await gw.direct("POST", WRITE_PATH, ok)).json);
    assert.equal(again.id, first.json.id);
    const wrongOracle = await gw.direct("POST", WRITE_PATH, wrong);
    assert.equal(wrongOracle.status, 422);
    assert.equal(wrongOracle.json.error.code, "write:unknown-reference");
    const wrongCall = await lib.HttpLlm.propagate(props(write, { body: wrong }));
    assert.equal(wrongCall.status, 422);
    const wrongBody = typeof wrongCall.body === "string" ? JSON.parse(wrongCall.body) : wrongCall.body;
    assert.deepEqual(wrongBody, wrongOracle.json, "the write refusal's envelope, fix included");

    const text = await lib.HttpLlm.execute(props(schema, { query: { detail: "brief" } }));
    assert.equal(text, (await gw.direct("GET", "/v1/schema?detail=brief")).text);

    const refusedOracle = await gw.direct("POST", "/v1/query", QUERY_REFUSED);
    assert.equal(refusedOracle.status, 422);
    assert.match(refusedOracle.json.error.fix, /^FIX: /);
    const refused = await lib.HttpLlm.propagate(props(query, { body: QUERY_REFUSED }));
    assert.equal(refused.status, 422);
    const body = typeof refused.body === "string" ? JSON.parse(refused.body) : refused.body;
    assert.deepEqual(body, refusedOracle.json, "the whole error envelope, fix included");
    // execute() throws an HttpError with the status. Its message cannot carry a
    // JSON body: the library passes the parsed object to Error(), which makes it
    // "[object Object]". propagate() above is the call that keeps the body
    // (Agentica's executor uses it).
    await assert.rejects(lib.HttpLlm.execute(props(query, { body: QUERY_REFUSED })), (e) => {
      assert.equal(e.status, 422);
      return true;
    });
  });
}
