/**
 * Clients by address, made on first use: the ring names its members by address, and a member
 * that leaves is `remove`d so its connection closes.
 */
export class ClientPool<T extends { close(): void }> {
  private readonly clients = new Map<string, T>();

  constructor(private readonly create: (address: string) => T) {}

  get(address: string): T {
    let client = this.clients.get(address);
    if (client === undefined) {
      client = this.create(address);
      this.clients.set(address, client);
    }
    return client;
  }

  /** Addresses with a client. */
  addresses(): string[] {
    return [...this.clients.keys()];
  }

  /** Closes and forgets the client of `address`, if any. */
  remove(address: string): void {
    const client = this.clients.get(address);
    if (client === undefined) return;
    this.clients.delete(address);
    client.close();
  }

  closeAll(): void {
    for (const address of this.addresses()) this.remove(address);
  }
}
