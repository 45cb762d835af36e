import Fastify from 'fastify';

/**
 * Sequential GETs over real HTTP and the bare Fastify hello-world they are compared with in the same run (a shared,
 * noisy machine makes the ratio the figure to compare between runs).
 */

/** `requests` GETs of `url`, one after the other, each read to its end; the times in ms, sorted. A non-200 throws. */
export async function timedGets(url: string, requests: number, headers: Record<string, string> = {}): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const began = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    times.push(performance.now() - began);
  }
  return times.sort((a, b) => a - b);
}

/** A bare Fastify hello-world on a free loopback port: its url and how to close it. */
export async function helloWorld(): Promise<{ url: string; close: () => Promise<void> }> {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  const url = await hello.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => hello.close() };
}
