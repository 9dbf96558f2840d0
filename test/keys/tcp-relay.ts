/**
 * A small TCP relay between the app and the real PostgreSQL server, to make real network faults: `stall()` keeps
 * every connection open but stops relaying (a network stall: the server never answers), `cut()` closes every
 * connection and refuses new ones (the server unreachable), `restore()` relays again.
 */
import { once } from 'node:events';
import net from 'node:net';

export class TcpRelay {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly peers = new WeakMap<net.Socket, net.Socket>();
  private mode: 'relay' | 'stall' | 'cut' = 'relay';
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      if (this.mode === 'cut') {
        client.destroy();
        return;
      }
      const upstream = net.connect(target.port, target.host);
      this.peers.set(client, upstream);
      this.peers.set(upstream, client);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      // In a stall nothing is read (the bytes wait, as in a network that stopped delivering) and so nothing answers.
      client.pipe(upstream);
      upstream.pipe(client);
      if (this.mode === 'stall') this.pause(client, upstream);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  /** The URL `url` with its host and port replaced by the relay's. */
  urlFor(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  private pause(...sockets: net.Socket[]): void {
    for (const socket of sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  stall(): void {
    this.mode = 'stall';
    this.pause(...this.sockets);
  }

  cut(): void {
    this.mode = 'cut';
    for (const socket of this.sockets) socket.destroy();
  }

  /** Relays again (connections made before a stall carry on where they stopped). */
  restore(): void {
    this.mode = 'relay';
    for (const socket of this.sockets) {
      const other = this.peers.get(socket);
      if (other) socket.pipe(other);
      socket.resume();
    }
  }

  async close(): Promise<void> {
    this.cut();
    this.server.close();
    await once(this.server, 'close').catch(() => undefined);
  }
}

/** The host and port of a postgres:// URL. */
export function postgresTarget(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 5432) };
}
