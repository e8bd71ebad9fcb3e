/** Nest injection tokens for the plain objects bootstrap builds. */
export const CONFIG = Symbol('webhook.config');
export const LOGGER = Symbol('webhook.logger');
