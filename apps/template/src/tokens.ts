/** Nest injection tokens for the dependencies bootstrap hands to the module. */
export const TEMPLATE_CONFIG = Symbol('TEMPLATE_CONFIG');
export const TEMPLATE_LOGGER = Symbol('TEMPLATE_LOGGER');
export const TEMPLATE_USAGE = Symbol('TEMPLATE_USAGE');
