/** Order statuses seen in the purchase history (upstream may add more; a filter on others warns). */
export const ORDER_STATUSES: readonly string[] = [
  "received",
  "acknowledged",
  "delivered",
  "refunded",
  "canceled",
  "rejected",
];
