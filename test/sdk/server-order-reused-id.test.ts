// The proxy's order of the server's messages (src/proxy/server-order.ts, issue 39 sdkorder item 4): a server that
// reuses a request id while the decorator still holds the first request of that id. The second hold replaced the
// first's place, so a notification behind the first went out before it; now each keeps its own place, the first
// passed on taking the first.
import { describe, expect, test } from 'vitest';
import { HostOutbox } from '../../src/proxy/host-outbox.ts';
import { ServerOrder } from '../../src/proxy/server-order.ts';

const request = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'sampling/createMessage', name });
const note = (name: string) => ({ jsonrpc: '2.0', method: 'notifications/message', name });

describe('the server order with a reused server request id', () => {
  test('two holds of one id keep two places, in order, and what came between waits for the first', () => {
    const written: string[] = [];
    const outbox = new HostOutbox((m) => written.push((m as { name: string }).name));
    const order = new ServerOrder(outbox);
    order.held('request', 5);
    outbox.put(note('between'), null);
    order.held('request', 5);
    outbox.put(note('after'), null);
    expect(written).toEqual([]);
    order.placeOfRequest(5)?.fill(request(5, 'first'), null);
    expect(written).toEqual(['first', 'between']);
    order.placeOfRequest(5)?.fill(request(5, 'second'), null);
    expect(written).toEqual(['first', 'between', 'second', 'after']);
  });

  test('a hold given up drops only its own place; a notification held in order keeps its place', () => {
    const written: string[] = [];
    const outbox = new HostOutbox((m) => written.push((m as { name: string }).name));
    const order = new ServerOrder(outbox);
    const dropFirst = order.held('request', 5);
    order.held('notification', null);
    order.held('request', 5);
    outbox.put(note('last'), null);
    dropFirst();
    expect(written).toEqual([]);
    order.placeOf(null)?.fill(note('held notification'), null);
    expect(written).toEqual(['held notification']);
    order.placeOfRequest(5)?.fill(request(5, 'second'), null);
    expect(written).toEqual(['held notification', 'second', 'last']);
  });
});
