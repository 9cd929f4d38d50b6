import { Command, Option } from 'commander';
import { checksFor } from '../conformance/catalogue.js';
import { explain } from '../mock/explain.js';
import { loadModel, SPEC_PATH } from '../model/loader.js';
import { OverlayError } from '../model/overlay.js';
import { applyConfigFile, overlayOption, overlaysOf } from '../cli/config.js';
import { adoptLegacyEnvironment, COMMANDS, envName } from '../cli/product.js';
import { renderExplanation } from './text.js';

/**
 * `openapi-harness explain [spec]`: what the mock and the suite read in a description (default: the shipped one),
 * each line with its reason and the decision of spec/DECISIONS.md it follows: resources (their operations, key,
 * parent, filters applied and ignored), the operations answered from the description's examples or samples, the
 * security schemes, and what the suite checks per operation (conformance/catalogue.ts). `--json` writes the same
 * as one JSON document (mock/explain.ts `Explanation`), the one the console's Explain page shows. It sits above
 * the mock's floor and the suite's, so it reads both the mock's view and the suite's catalogue. Exit codes: 0, or 2 when the
 * description or an overlay cannot be read (the message names the file, and for an overlay the action).
 */
adoptLegacyEnvironment();
const program = new Command(COMMANDS.explain)
  .description('Shows what the mock and the suite read in an OpenAPI description, each reading with its reason and its decision (spec/DECISIONS.md).')
  .argument('[spec]', 'the OpenAPI description, as --spec')
  .addOption(new Option('--spec <file>', 'the OpenAPI document to explain').default(SPEC_PATH, 'spec/openapi.yaml, the shipped Pet Store Animals interface').env(envName('SPEC')))
  .addOption(overlayOption())
  .addOption(new Option('--json', 'write one JSON document (the console shows the same) instead of text').default(false))
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
  .showHelpAfterError();
program.parse();
applyConfigFile(program, 'explain', 2);
const options = program.opts<{ spec: string; overlay: string[] | string; json: boolean }>();
const overlays = overlaysOf(options.overlay);

try {
  const model = await loadModel(options.spec, { overlays });
  const explanation = explain(model, checksFor(model).map((check) => ({ id: check.id, rule: check.rule })), overlays);
  process.stdout.write(options.json ? `${JSON.stringify(explanation, null, 2)}\n` : renderExplanation(explanation));
} catch (error) {
  process.stderr.write(`${COMMANDS.explain}: ${error instanceof OverlayError ? '' : `cannot load the spec ${options.spec}: `}${(error as Error).message}\n`);
  process.exitCode = 2;
}
