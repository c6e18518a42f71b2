// Redocly CLI (its built-in "recommended" ruleset) and Spectral (its
// "spectral:oas" ruleset) on both served documents: no error, no warning,
// no hint.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startQuerygate } from "./querygate.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "generated", "lint");
const bin = (name) => join(here, "node_modules", ".bin", name);
const documents = { agent: "", operator: "?audience=operator" };
const names = [...Object.keys(documents), "agent-keyed"];

let gw, keyed;
before(async () => {
  gw = await startQuerygate();
  keyed = await startQuerygate({ keyed: true }); // a key required, several databases
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [name, query] of Object.entries(documents))
    writeFileSync(join(out, `${name}.json`), JSON.stringify(await gw.document(query), null, 2));
  writeFileSync(join(out, "agent-keyed.json"), JSON.stringify(await keyed.document(), null, 2));
  writeFileSync(join(out, "spectral.yaml"), 'extends: ["spectral:oas"]\n');
  writeFileSync(join(out, "redocly.yaml"), "extends:\n  - recommended\n");
});
after(async () => {
  await gw?.stop();
  await keyed?.stop();
});

function run(command, args) {
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  return spawnSync(command, args, { encoding: "utf8", env, cwd: out });
}

for (const name of names) {
  test(`redocly lint (recommended): nothing to report on the ${name} document`, () => {
    const r = run(bin("redocly"), ["lint", "--config", join(out, "redocly.yaml"), "--format=json", join(out, `${name}.json`)]);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    assert.deepEqual(problems, [], r.stderr);
    assert.equal(r.status, 0, r.stderr);
  });

  test(`spectral lint (spectral:oas): nothing to report on the ${name} document`, () => {
    const r = run(bin("spectral"), ["lint", "--ruleset", join(out, "spectral.yaml"), "--format", "json", "--fail-severity", "hint", join(out, `${name}.json`)]);
    const findings = JSON.parse(r.stdout.slice(r.stdout.indexOf("["), r.stdout.lastIndexOf("]") + 1)).map((f) => `${f.code}: ${f.message} at ${f.path.join(".")}`);
    assert.deepEqual(findings, [], r.stderr);
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
}
