#!/usr/bin/env node
// `npm test`'s typecheck and eslint in one process, over one TypeScript program. Run apart, `npm run typecheck`
// (tsc --noEmit) and `npm run lint` (typed eslint) each parse, bind and check the whole tree of tsconfig.json; here the
// program is made once, its diagnostics are reported as `tsc -p tsconfig.json --noEmit` reports them, and eslint then
// lints with that program (typescript-eslint's `programs`), whose checker already holds every type the typed rules
// ask for. Output: tsc's diagnostics in tsc's format (with colour and context on a terminal), then eslint's report in
// its default format. Exit code: 0 when both pass, 1 when either fails; both always run, so every failure shows at once.
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = process.cwd();
const pretty = process.stdout.isTTY === true;
const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
const print = (diagnostics) => {
  if (diagnostics.length > 0) process.stdout.write(pretty ? `${ts.formatDiagnosticsWithColorAndContext(diagnostics, host)}\n` : ts.formatDiagnostics(diagnostics, host));
};

const tsconfig = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
if (tsconfig === undefined) {
  process.stderr.write(`no tsconfig.json in ${root}\n`);
  process.exit(1);
}
const unrecoverable = [];
const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic) });
if (parsed === undefined) {
  print(unrecoverable);
  process.exit(1);
}
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences, configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed) });

// What tsc reports with --noEmit, in its order: each stage only when the ones before found nothing (TypeScript's
// emitFilesAndReportErrors), declaration diagnostics included since tsconfig.json sets `declaration`.
const diagnostics = [...program.getConfigFileParsingDiagnostics()];
const fromConfig = diagnostics.length;
diagnostics.push(...program.getSyntacticDiagnostics());
if (diagnostics.length === fromConfig) {
  diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
  if (diagnostics.length === fromConfig) diagnostics.push(...program.getSemanticDiagnostics());
  const options = program.getCompilerOptions();
  if (options.noEmit === true && (options.declaration === true || options.composite === true) && diagnostics.length === fromConfig) diagnostics.push(...program.getDeclarationDiagnostics());
}
const typeErrors = ts.sortAndDeduplicateDiagnostics(diagnostics);
print(typeErrors);

// Only the TypeScript files are linted with types (eslint.config.js lints the console's browser JavaScript without).
const eslint = new ESLint({ cwd: root, overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }] });
const results = await eslint.lintFiles(['.']);
const report = await (await eslint.loadFormatter('stylish')).format(results);
if (report !== '') process.stdout.write(report);
const lintErrors = results.reduce((sum, result) => sum + result.errorCount + result.fatalErrorCount, 0);
process.exit(typeErrors.length === 0 && lintErrors === 0 ? 0 : 1);
