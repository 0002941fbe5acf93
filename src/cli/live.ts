// Open connections, so that an interrupt can drop their sockets at once.
export interface Destroyable {
  destroy(): void;
}

export const liveClients = new Set<Destroyable>();

export function destroyAll(): void {
  for (const c of liveClients) c.destroy();
  liveClients.clear();
}
