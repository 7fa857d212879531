/**
 * Preloaded into a host (`NODE_OPTIONS=--import <this file>`) by `npm run bench -- write-phases`:
 * SIGUSR2 starts V8's sampling CPU profiler on the host's main thread, the next SIGUSR2 stops it
 * and writes the profile (.cpuprofile JSON) to `$CPU_PROFILE_OUT`. Nothing runs until the first
 * signal, so the host's measured rows pay nothing for it; it works on any checkout's host, the
 * code before a change included, without touching that code.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const out = process.env['CPU_PROFILE_OUT'];
if (out !== undefined) {
  let session: Session | undefined;
  process.on('SIGUSR2', () => {
    if (session === undefined) {
      session = new Session();
      session.connect();
      session.post('Profiler.enable');
      session.post('Profiler.setSamplingInterval', { interval: 200 });
      session.post('Profiler.start');
      return;
    }
    const done = session;
    session = undefined;
    done.post('Profiler.stop', (error, result) => {
      if (error === null) writeFileSync(out, JSON.stringify(result.profile));
      done.disconnect();
    });
  });
}
