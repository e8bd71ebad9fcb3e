/** Semver of the public API; its major part matches the `/api/v1` prefix (spec §9). */
export const API_VERSION = '1.0.0';
