import {
  engineSample,
  growthPer1000,
  parseVerdictLine,
  splitGrowth,
  splitGrowthTable,
  splitTable,
  verdict,
  verdictLine,
  type Sample,
  type SplitSample,
} from '../soak/report';

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

  describe('split runs (--split)', () => {
    const memory = (rssMb: number, heapTotalMb: number, heapUsedMb = heapTotalMb / 2) => ({
      rssMb,
      heapUsedMb,
      heapTotalMb,
    });
    // The worker grows 4 MB/1000, of which its main heap total 1 MB; the API is flat; the sandbox grows 2 MB/1000.
    const split = (payments: number, p99Ms = 100): SplitSample => ({
      payments,
      p99Ms,
      processes: {
        api: memory(200, 60),
        worker: memory(250 + (4 * payments) / 1000, 80 + payments / 1000),
        sandbox: memory(100 + (2 * payments) / 1000, 30),
      },
    });
    const samples = [
      { ...split(0), processes: { ...split(0).processes, api: memory(150, 40) } },
      ...[1000, 2000, 3000].map((n) => split(n)),
    ];

    it('judges the engine as API + worker summed, leaving the sandbox out', () => {
      expect(engineSample(split(1000))).toEqual({
        payments: 1000,
        rssMb: 454,
        heapUsedMb: 70.5,
        heapTotalMb: 141,
        p99Ms: 100,
      });
      const result = verdict(samples.map(engineSample), 1000, 0);
      expect(result.rssGrowth).toBeCloseTo(4);
      expect(result.finalRssMb).toBeCloseTo(462);
      expect(verdictLine(result)).toContain('(MISSED ≤ 400)');
    });

    it('gives each process its growth after warm-up, and how much of it is outside its main heap', () => {
      const growth = splitGrowth(samples, 1000);
      expect(growth.map((g) => g.role)).toEqual(['api', 'worker', 'sandbox']);
      const [api, worker, sandbox] = growth;
      expect(api!.rss).toBeCloseTo(0);
      expect(api!.rssAtWarmupMb).toBe(200);
      expect(worker!.rss).toBeCloseTo(4);
      expect(worker!.heapTotal).toBeCloseTo(1);
      expect(worker!.heapUsed).toBeCloseTo(0.5);
      expect(worker!.outsideMainHeap).toBeCloseTo(3);
      expect(worker!.rssAtEndMb).toBeCloseTo(262);
      expect(sandbox!.rss).toBeCloseTo(2);
      expect(splitGrowthTable(growth)).toContain('| worker | 254.0 | 262.0 | 4.00 | 0.50 | 1.00 | 3.00 |');
    });

    it('prints one row per sample with every process and the engine sum', () => {
      const rows = splitTable(samples).split('\n');
      expect(rows).toHaveLength(2 + samples.length);
      expect(rows[3]).toBe('| 1000 | 200.0 | 30.0 / 60.0 | 254.0 | 40.5 / 81.0 | 454.0 | 102.0 | 15.0 / 30.0 | 100 |');
    });
  });
});
