export const LOGGER = Symbol('LOGGER');
export const CONFIG = Symbol('CONFIG');
