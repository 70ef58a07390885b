// Reading the Prometheus text format of /metrics in tests.

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Every sample of the metric `name` (exact name: a histogram's `_bucket` series are their own names). */
export function samples(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const pair of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}
