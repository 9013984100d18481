/** The address of one customer's view (CustomerScreen): all their consents and cached data. */
export const customerLink = (consumerId: string) => `/data/customer?id=${encodeURIComponent(consumerId)}`;
