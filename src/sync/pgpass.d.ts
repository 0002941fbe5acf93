// pgpass (the password file reader pg itself used to call) has no published types.
declare module 'pgpass' {
  interface ConnInfo {
    host?: string | null;
    port?: number | string | null;
    database?: string | null;
    user?: string | null;
  }
  function pgpass(connInfo: ConnInfo, cb: (password: string | undefined) => void): void;
  export default pgpass;
}
