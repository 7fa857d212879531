/**
 * The guest's phase timings (`guest_profile` log lines of a profile build, scripts/build.ts's
 * profile variant): per phase, the microseconds of each exchange of `route` in `output` from line `from` on.
 */
export function guestPhases(output: readonly string[], from: number, route: string): Map<string, number[]> {
  const phases = new Map<string, number[]>();
  for (const line of output.slice(from)) {
    if (!line.includes('"code":"guest_profile"')) continue;
    const batch = (JSON.parse(line) as { phases: Record<string, number[]> }).phases;
    const total = batch[`${route} total`];
    if (total === undefined) continue;
    for (const [key, samples] of Object.entries(batch)) {
      if (!key.startsWith(`${route} `)) continue;
      const name = key.slice(route.length + 1);
      const kept = phases.get(name) ?? [];
      // Only this route's exchanges: the batch also holds others' (0 here).
      samples.forEach((us, i) => {
        if (total[i]! > 0) kept.push(us);
      });
      phases.set(name, kept);
    }
  }
  return phases;
}
