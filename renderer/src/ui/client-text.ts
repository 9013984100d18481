import Bowser from 'bowser';

/**
 * The client a team server recorded for an audit entry ("203.0.113.7 Mozilla/5.0 (Windows NT 10.0…)
 * Chrome/131…") in words: "Chrome 131 on Windows · 203.0.113.7". The raw value stays on hover.
 * Not a browser (the CLI, a script): its agent's first word.
 */
export function clientText(raw: string): string {
  const space = raw.indexOf(' ');
  const address = space < 0 ? raw : raw.slice(0, space);
  const agent = space < 0 ? '' : raw.slice(space + 1).trim();
  if (!agent) return address;
  const b = Bowser.getParser(agent);
  const name = b.getBrowserName();
  const version = b.getBrowserVersion()?.split('.')[0];
  const os = b.getOSName();
  const what = name ? `${name}${version ? ` ${version}` : ''}${os ? ` on ${os}` : ''}` : (agent.split(/[\s/]/)[0] ?? agent);
  return `${what} · ${address}`;
}
