import pg from 'pg';
import { urlAsRole } from './index.js';

/**
 * Connections to a test database as one of its roles, kept to be closed after the tests (`close`), and the SQLSTATE
 * a statement ends with ('ok' when it succeeds): what the roles specs assert about each role's rights.
 */
export function roleClients(url: () => string) {
  const clients: pg.Client[] = [];
  return {
    as: async (role: string): Promise<pg.Client> => {
      const c = new pg.Client({ connectionString: urlAsRole(url(), role) });
      await c.connect();
      clients.push(c);
      return c;
    },
    /** Closes a connection of the spec's own with the others. */
    keep: (c: pg.Client): void => void clients.push(c),
    close: () => Promise.allSettled(clients.map((c) => c.end())),
  };
}

/** 'ok' when the statement succeeds, else its SQLSTATE ('42501' for permission denied). */
export const sqlState = (p: Promise<unknown>): Promise<string | undefined> =>
  p.then(
    () => 'ok',
    (err: { code?: string }) => err.code,
  );
