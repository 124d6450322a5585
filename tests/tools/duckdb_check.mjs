// docs/analysis.md's DuckDB queries, run as written on a directory of runs, checked against
// `feecscope report --json`. DuckDB is not packaged by Debian: this runs where Node.js has
// @duckdb/node-api (npm), so it is not part of `make check`. See tests/tools/duckdb-check.sh.
// Usage: node duckdb_check.mjs ANALYSIS_MD REPORT_JSON THREADS_JSON   (in the directory holding runs/)
// THREADS_JSON: {comm: mJ} summed over every run's CSV by Python's gzip and csv modules.
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'fs';

const [md, repPath, thrPath] = process.argv.slice(2);
const threads = JSON.parse(fs.readFileSync(thrPath, 'utf8'));
const rep = JSON.parse(fs.readFileSync(repPath, 'utf8'));
const block = fs.readFileSync(md, 'utf8').split('```sql')[1].split('```')[0];
const stmts = block.split(';').map(s => s.trim()).filter(s => s.replace(/--[^\n]*\n?/g, '').trim());
const con = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async sql => (await con.runAndReadAll(sql)).getRowObjectsJson();
const bad = [];
const near = (a, b) => Math.abs(Number(a) - Number(b)) <= 5e-6 + 1e-9 * Math.abs(Number(b));
const stem = p => p.replace(/^.*\//, '').replace(/\.(csv\.gz|fsr)$/, '');

if (stmts.length !== 3)
	bad.push(`docs have ${stmts.length} DuckDB statements, 3 expected`);
console.log('DuckDB', (await rows('SELECT version() AS v'))[0].v);
// 1: per run, from the decision CSVs
const perRun = await rows(stmts[0]);
for (const r of rep.recordings) {
	const got = perRun.find(x => stem(x.filename) === stem(r.path));
	if (!got || !near(got.margin_costs_mj, r.delta_mj))
		bad.push(`${r.path}: DuckDB ${got && got.margin_costs_mj} mJ, report ${r.delta_mj}`);
}
// 2: per device and kernel, from report.csv
const groups = await rows(stmts[1]);
for (const g of rep.groups) {
	const got = groups.find(x => x.em === g.em && (x.kernel_release ?? '') === (g.kernel_release ?? ''));
	if (!got || !near(got.margin_costs_mj, g.delta_mj))
		bad.push(`group ${g.em.slice(0, 30)} ${g.kernel_release}: DuckDB ${got && got.margin_costs_mj}, report ${g.delta_mj}`);
}
// 3: the threads the margin costs most, by name over every run (report sums processes instead)
const procs = await rows(stmts[2]);
const top = Object.entries(threads).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 10);
if (procs.length !== top.length)
	bad.push(`DuckDB lists ${procs.length} threads, ${top.length} expected`);
for (const [i, [comm, mj]] of top.entries())
	if (!procs[i] || procs[i].comm !== comm || !near(procs[i].mj, mj))
		bad.push(`thread #${i + 1}: DuckDB ${procs[i] && procs[i].comm} ${procs[i] && procs[i].mj}, Python ${comm} ${mj}`);
console.log(bad.join('\n') || `3 queries agree: ${perRun.length} runs and ${groups.length} groups = report --json, ` +
	`top ${procs.length} threads = Python's csv`);
process.exit(bad.length ? 1 : 0);
