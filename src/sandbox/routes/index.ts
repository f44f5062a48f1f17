/** Route tables of the simulator. Add a capability's routes by appending its list in allRoutes(). */
import type { Route } from "../types.ts";
import { authRoutes } from "./auth.ts";
import { userRoutes } from "./user.ts";
import { accountRoutes } from "./account.ts";
import { discoveryRoutes } from "./discovery.ts";
import { basketRoutes } from "./baskets.ts";
import { loginRoutes } from "./login.ts";
import { releaseRoutes } from "./release.ts";
import { trackingRoutes } from "./tracking.ts";

export const coreRoutes: Route[] = [...authRoutes, ...userRoutes];

export function allRoutes(): Route[] {
  return [
    ...coreRoutes,
    ...accountRoutes,
    ...discoveryRoutes,
    ...basketRoutes,
    ...loginRoutes,
    ...releaseRoutes,
    ...trackingRoutes,
  ];
}
