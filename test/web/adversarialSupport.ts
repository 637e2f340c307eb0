import { connect } from 'node:net';

/** A raw HTTP exchange over TCP: the request exactly as written, the answer as the server sent it. */
export interface RawAnswer {
  status: number;
  head: string;
  headers: Record<string, string>;
  body: string;
  json: { error?: { code?: string; message?: string } } | null;
}

/** Sends `text` as it is and reads until the server closes or `ms` passes (then what came, or an error). */
export function rawHttp(port: number, text: string | Buffer, ms = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const all = data.toString('latin1');
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer within ${ms} ms (got ${JSON.stringify(all)})`));
      const head = all.slice(0, end);
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      let body = all.slice(end + 4);
      const length = headers['content-length'];
      if (length !== undefined) body = body.slice(0, Number(length));
      let json = null;
      try {
        json = JSON.parse(body);
      } catch {}
      resolve({ status: Number(statusLine?.split(' ')[1]), head, headers, body, json });
    };
    const timer = setTimeout(finish, ms);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      // A complete answer with a length: no need to wait for the close.
      const all = data.toString('latin1');
      const end = all.indexOf('\r\n\r\n');
      const m = /\r\ncontent-length: *(\d+)/i.exec(all.slice(0, end));
      if (end >= 0 && m && data.length >= end + 4 + Number(m[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
    socket.write(text);
  });
}

/** A WebSocket handshake's request line and headers, with `extra` lines added. */
export function upgradeRequest(target: string, extra: string[] = [], method = 'GET'): string {
  return [
    `${method} ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...extra,
    '',
    '',
  ].join('\r\n');
}

/** Waits until `check` holds, or fails after `ms`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'a condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
