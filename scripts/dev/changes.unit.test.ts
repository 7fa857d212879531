import { describe, expect, it } from 'vitest';
import { needsOf } from './changes.ts';

describe('needsOf()', () => {
  it('builds for src/, static/ and wit/; restarts for host/', () => {
    expect(needsOf(['src/counter/rest.ts'])).toEqual({ build: true, restart: false, wit: false });
    expect(needsOf(['static/styles.css'])).toEqual({ build: true, restart: false, wit: false });
    expect(needsOf(['wit/world.wit'])).toEqual({ build: true, restart: false, wit: true });
    expect(needsOf(['host/http/server.ts'])).toEqual({ build: false, restart: true, wit: false });
    expect(needsOf(['host/log.ts', 'src/app.ts'])).toEqual({ build: true, restart: true, wit: false });
  });

  it('asks nothing for tests, the build output and editor files', () => {
    const none = { build: false, restart: false, wit: false };
    expect(needsOf(['src/app.unit.test.ts', 'host/x.e2e.test.ts', 'src/web/generated/static-assets.ts'])).toEqual(none);
    expect(needsOf(['src/.app.ts.swp', 'src/app.ts~', 'src/4913', 'host/.#log.ts', 'host/#log.ts#', 'src/app.ts___jb_tmp___'])).toEqual(none);
  });
});
