/**
 * One raw HTTP/1.x exchange over a socket, for requests no client library sends (`*`
 * targets, CONNECT, no Host): writes `text` as it is and reads until the server closes or
 * the answer's body is complete.
 */
import { connect } from 'node:net';

export function rawHttp(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (d) => {
      answer += d;
      const [head, body = ''] = answer.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '');
      if (length && Buffer.byteLength(body) >= Number(length[1])) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(text);
  });
}
