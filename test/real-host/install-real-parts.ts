// The real-host project's global set-up: installs every pinned host CLI and framework (real-parts.ts) into the test
// cache before the project's first test, two at a time, and prints one line per part. It never fails the run: a part
// that cannot be installed fails (under CI=true) or skips (elsewhere) the suites that need it, naming it.
import { installFramework } from '../frameworks/framework-package.ts';
import type { HostInstall } from './install-package.ts';
import { realFrameworks, realHosts } from './real-parts.ts';

const parallel = 2;

/** Vitest global set-up: installs the real parts, one line each on stdout. */
export default async function installRealParts(): Promise<void> {
  const jobs: [string, () => Promise<HostInstall>][] = [
    ...Object.entries(realHosts).map(([label, install]): [string, () => Promise<HostInstall>] => [
      label,
      () => install(),
    ]),
    ...Object.values(realFrameworks).map((spec): [string, () => Promise<HostInstall>] => [
      `${spec.name}@${spec.version}`,
      () => installFramework(spec),
    ]),
  ];
  const lines: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) {
      const [label, install] = job;
      const done = await install();
      lines.push(done.ok ? `real part ready: ${label} ${done.version}` : `real part missing: ${label}: ${done.reason}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  for (const line of lines.sort()) console.log(line);
}
