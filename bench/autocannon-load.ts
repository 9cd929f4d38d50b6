import autocannon from 'autocannon';

/** One load request: what autocannon sends, for how long. */
export interface Load {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Seconds of load. */
  duration: number;
  /** Concurrent connections; the issue asks for 50. */
  connections?: number;
}

/** What one load run measured: throughput in requests per second, p99 latency in milliseconds, and failures. */
export interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  /** Responses whose status was not the expected 2xx, plus socket errors and timeouts. */
  failures: number;
  total: number;
  /** CPU time (user + system) the server process spent per request, in microseconds, when measured. */
  cpuMicrosPerRequest?: number;
  /** Count of responses per HTTP status. */
  statusCodes: Record<string, number>;
}

/** Runs autocannon (programmatic API, HTTP/1.1, no pipelining) against one URL. */
export async function measure(load: Load): Promise<Measured> {
  const result = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    headers: load.headers,
    ...(load.body === undefined ? {} : { body: load.body }),
    connections: load.connections ?? 50,
    duration: load.duration,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0])),
  };
}
