/** User host (restaurant-api): the signed-in user's profile. */
import { json } from "../http.ts";
import { DEMO_USER } from "../tokens.ts";
import type { Route } from "../types.ts";

export const userRoutes: Route[] = [
  {
    host: "user_api",
    method: "GET",
    pattern: "/v1/user/me",
    auth: "required",
    handle: ({ state }) =>
      json({
        user: {
          _id: { $oid: DEMO_USER.id },
          name: { first_name: DEMO_USER.first_name, last_name: DEMO_USER.last_name },
          email: DEMO_USER.email,
          phone_number: DEMO_USER.phone_number,
          country: DEMO_USER.country,
          settings: { marketing_consent: false },
          ...(typeof state.user_plus_signal === "boolean" &&
            { wolt_plus: { is_subscriber: state.user_plus_signal } }),
        },
      }),
  },
];
