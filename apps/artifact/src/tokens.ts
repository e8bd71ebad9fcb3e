/** Injection tokens for values that are not classes. */
export const LOGGER = Symbol('LOGGER');
export const CONFIG = Symbol('CONFIG');
