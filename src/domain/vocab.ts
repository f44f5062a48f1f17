/**
 * svc's vocabulary: every closed list of values a person or an agent can pass, in one import-free
 * module. The command tree (help, completions), the services (validation) and the MCP schemas (enums)
 * all read these lists, so a value added here is accepted, completed and documented everywhere.
 * Aliases (`--sort fee`) and open lists (order statuses upstream may extend) are the services' business.
 */

/** Kinds of venue `venues --type` filters on (the rows' product line). */
export const VENUE_TYPES = ["restaurant", "grocery", "pharmacy", "retail"] as const;
/** A venue kind. */
export type VenueType = typeof VENUE_TYPES[number];

/** Orders of `venues --sort` (aliases such as `fee` map onto these). */
export const VENUE_SORTS = ["recommended", "distance", "rating", "delivery_price", "delivery_time"] as const;
/** A venue order. */
export type VenueSort = typeof VENUE_SORTS[number];

/** Orders of a menu's items (`venue menu --sort`). */
export const MENU_SORTS = ["recommended", "price", "name"] as const;
/** A menu order. */
export type MenuSort = typeof MENU_SORTS[number];

/** The optional sections of `venue <venue> --include`. */
export const DETAIL_SECTIONS = ["hours", "tags", "rating", "fees"] as const;
/** One optional venue section. */
export type DetailSection = typeof DETAIL_SECTIONS[number];

/** Days of the week, Monday first, as opening hours name them. */
export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
/** A day of the week. */
export type Weekday = typeof WEEKDAYS[number];

/** Kinds of place a saved address is (`--type`, upstream `location_type`). */
export const ADDRESS_TYPES = ["apartment", "office", "house", "outdoor", "other"] as const;
/** A kind of place. */
export type AddressType = typeof ADDRESS_TYPES[number];

/** Labels of a saved address (`--label`, upstream `label_type`). */
export const ADDRESS_LABELS = ["home", "work", "other"] as const;
/** An address label. */
export type AddressLabel = typeof ADDRESS_LABELS[number];

/** The optional sections of the profile (`account --include`, MCP `include`). */
export const PROFILE_PARTS = ["personal", "settings"] as const;
/** One optional profile section. */
export type ProfilePart = typeof PROFILE_PARTS[number];

/** Delivery modes a checkout preview can quote (`checkout preview --delivery-mode`). */
export const DELIVERY_MODES = ["standard", "priority", "schedule"] as const;
/** A delivery mode. */
export type DeliveryMode = typeof DELIVERY_MODES[number];
/** The modes the top-level `checkout` and the MCP preview take (no scheduling). */
export const TOP_LEVEL_MODES = ["standard", "priority"] as const satisfies readonly DeliveryMode[];

/** Order statuses seen in the purchase history (upstream may add more; a filter on others warns). */
export const ORDER_STATUSES: readonly string[] = [
  "received",
  "acknowledged",
  "delivered",
  "refunded",
  "canceled",
  "rejected",
];

/**
 * What a reorder's plan says of each past line against today's menu (`history reorder`,
 * `svc_order_reorder`): as it was; the price differs; an option is gone, renamed or needs a new choice;
 * found only by its name (never taken as the same); on the menu but not orderable now; not on the menu.
 */
export const REORDER_STATUSES = [
  "same",
  "price_changed",
  "option_changed",
  "matched_by_name",
  "unavailable",
  "missing",
] as const;
/** One reorder plan row's status. */
export type ReorderStatus = typeof REORDER_STATUSES[number];

/**
 * Order statuses after which nothing changes (compared lower-cased): tracking stops at them, and the
 * history sync re-reads a stored order whose status was none of them once the list shows another.
 */
export const FINAL_ORDER_STATUSES: readonly string[] = [
  "delivered",
  "canceled",
  "cancelled",
  "rejected",
  "refunded",
];

/** Groupings of the order history (`stats` queries, `svc_stats_query by`). */
export const GROUPINGS = ["month", "venue", "item", "weekday"] as const;
/** One grouping of the order history. */
export type Grouping = typeof GROUPINGS[number];

/** The MCP toolsets in catalogue order (`svc mcp --toolsets`). */
export const TOOLSET_NAMES = ["account", "discovery", "venue", "cart", "checkout", "stats"] as const;
/** One MCP toolset. */
export type ToolsetName = typeof TOOLSET_NAMES[number];
