/** Nest injection tokens for the plain values bootstrap hands to the module. */
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const PRICING = Symbol('PRICING');
