import { growthPer1000, parseVerdictLine, verdict, verdictLine, type Sample } from '../soak/report';

const sample = (payments: number, rssMb: number, p99Ms = 100): Sample => ({
  payments,
  rssMb,
  heapUsedMb: rssMb / 2,
  heapTotalMb: rssMb,
  p99Ms,
});

describe('the soak report', () => {
  it('growth is the least-squares slope per 1,000 payments', () => {
    expect(growthPer1000([sample(0, 300), sample(1000, 302), sample(2000, 304)], (s) => s.rssMb)).toBeCloseTo(2);
    expect(growthPer1000([sample(0, 300)], (s) => s.rssMb)).toBeNaN();
  });

  it('judges only the samples after warm-up, and its verdict line reads back', () => {
    const samples = [sample(0, 100), sample(1000, 350, 120), sample(2000, 350.5, 130), sample(3000, 351, 150)];
    const result = verdict(samples, 1000, 0);
    expect(result.rssGrowth).toBeCloseTo(0.5);
    const line = verdictLine(result);
    expect(line).toContain('(met ≤ 1)');
    expect(line).toContain('MISSED ≤ 1.2');
    expect(parseVerdictLine(line)).toEqual(
      expect.objectContaining({ warmup: 1000, finalRssMb: 351, p99AfterWarmup: 120, p99AtEnd: 150, lost: 0 }),
    );
  });

  it('measures growth from the sample taken after the warm-up heap snapshot, not across the jump it leaves', () => {
    const samples = [
      sample(0, 300),
      sample(1000, 350, 120),
      { ...sample(1000, 630, 120), afterHeapSnapshot: true },
      sample(2000, 631),
      sample(3000, 632),
    ];
    const result = verdict(samples, 1000, 0);
    expect(result.rssGrowth).toBeCloseTo(1);
    expect(result.p99AfterWarmup).toBe(120);
  });
});
