import type { KilledFault } from '../independent-target.js';
import type { QuietFault } from './quiet-windows-server.js';

// The quiet-windows service (spec/wild/quiet-windows-3.0.yaml) implemented from its text alone. Its correct server
// refuses drawn windows whose start is not before their end with the documented 400 (the server's rule, D490);
// each fault below is a refusal or an answer the description does not allow.
export const QUIET_FAULTS: readonly KilledFault<QuietFault>[] = [
  { fault: 'range-reversed', killedBy: 'saveWindow.echo' },
  { fault: 'range-refused-422', killedBy: 'saveWindow.echo' },
  { fault: 'range-refusal-as-text', killedBy: 'saveWindow.echo' },
  { fault: 'unknown-id-500', killedBy: 'saveWindow.echo' },
  { fault: 'report-500', killedBy: 'getUptimeReport.documented' },
  { fault: 'delete-keeps', killedBy: 'deleteWindow.gone' },
];
