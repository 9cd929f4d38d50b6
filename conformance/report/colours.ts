import pc from 'picocolors';

/** picocolors' functions, and whether they colour. */
export type Colours = ReturnType<typeof pc.createColors> & { enabled: boolean };

/**
 * Colours for `stream`: on only when it is a terminal (and `TERM` is not `dumb`), off when `NO_COLOR` is set
 * (non-empty), and on whatever the stream when `FORCE_COLOR` is set to anything but `0` (it wins over
 * `NO_COLOR`, as in Node's own `util.inspect`). Unlike picocolors' default, a CI environment alone does not
 * turn colours on: piped into a log, the output stays plain text.
 */
export function colours(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Colours {
  const force = env['FORCE_COLOR'];
  const noColor = env['NO_COLOR'];
  const enabled = force !== undefined && force !== '0' ? true : noColor !== undefined && noColor !== '' ? false : stream.isTTY === true && env['TERM'] !== 'dumb';
  return { ...pc.createColors(enabled), enabled };
}
