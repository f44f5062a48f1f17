/**
 * The release host of the sandbox ({release_api_url}, GitHub REST shape): the latest release and
 * releases by tag, ETag/304 on both, and the assets (tarball built from dashboard/ on first use,
 * plus its `.sha256`). Tests replace the release list through POST /__sim/releases.
 */
import type { Route, RouteContext } from "../types.ts";
import { apiError, json } from "../http.ts";
import { type ReleaseOverride, simOf } from "../sim_stats.ts";

interface Assets {
  tarballName: string;
  tarball: Uint8Array;
  checksumName: string;
  checksum: string | null;
}

async function assetsOf(r: ReleaseOverride): Promise<Assets> {
  const name = `svc-stats-bundle-${r.tag}.tar.gz`;
  let tarball: Uint8Array;
  let checksum: string;
  if (r.tarball_base64 !== undefined) {
    tarball = Uint8Array.from(atob(r.tarball_base64), (c) => c.charCodeAt(0));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", tarball as Uint8Array<ArrayBuffer>));
    checksum = `${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}  ${name}\n`;
  } else {
    // Built from this repository's dashboard/ (lazily: only the stats flow pays for it).
    const { dashboardRelease } = await import("../../../dashboard/build.ts");
    const built = await dashboardRelease(r.tag);
    tarball = built.tarball;
    checksum = built.checksum;
  }
  return {
    tarballName: name,
    tarball,
    checksumName: `${name}.sha256`,
    checksum: r.no_checksum ? null : (r.sha256 ?? checksum),
  };
}

function releases(ctx: RouteContext): ReleaseOverride[] {
  const sim = simOf(ctx.state);
  return sim.releases ?? [{ tag: sim.defaultTag, published_at: "2026-11-01T00:00:00Z" }];
}

async function releaseBody(ctx: RouteContext, r: ReleaseOverride): Promise<Response> {
  const a = await assetsOf(r);
  const base = `${ctx.url.origin}/release/downloads/${encodeURIComponent(r.tag)}`;
  const etag = `"${r.tag}-${a.tarball.length}-${(a.checksum ?? "").slice(0, 16)}"`;
  const inm = ctx.req.headers.get("if-none-match");
  if (inm && inm.split(",").map((s) => s.trim()).includes(etag)) {
    return new Response(null, { status: 304, headers: { etag } });
  }
  const assets = [{
    name: a.tarballName,
    size: a.tarball.length,
    browser_download_url: `${base}/${a.tarballName}`,
  }];
  if (a.checksum !== null) {
    assets.push({
      name: a.checksumName,
      size: a.checksum.length,
      browser_download_url: `${base}/${a.checksumName}`,
    });
  }
  return json(
    {
      tag_name: r.tag,
      name: r.tag,
      html_url: `${ctx.url.origin}/release/${ctx.params.owner}/${ctx.params.repo}/releases/tag/${r.tag}`,
      published_at: r.published_at ?? "2026-11-01T00:00:00Z",
      assets,
    },
    200,
    { etag },
  );
}

async function download(ctx: RouteContext): Promise<Response> {
  const r = releases(ctx).find((x) => x.tag === ctx.params.tag);
  if (!r) return apiError(404, 404, "Not Found");
  const a = await assetsOf(r);
  if (ctx.params.name === a.tarballName) {
    return new Response(a.tarball as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": "application/gzip", "content-length": String(a.tarball.length) },
    });
  }
  if (ctx.params.name === a.checksumName && a.checksum !== null) {
    return new Response(a.checksum, { headers: { "content-type": "text/plain" } });
  }
  return apiError(404, 404, "Not Found");
}

export const releaseRoutes: Route[] = [
  {
    host: "release",
    method: "GET",
    pattern: "/repos/:owner/:repo/releases/latest",
    auth: "none",
    handle: (ctx) => releaseBody(ctx, releases(ctx)[0]),
  },
  {
    host: "release",
    method: "GET",
    pattern: "/repos/:owner/:repo/releases/tags/:tag",
    auth: "none",
    handle: (ctx) => {
      const r = releases(ctx).find((x) => x.tag === ctx.params.tag);
      return r ? releaseBody(ctx, r) : apiError(404, 404, "Not Found");
    },
  },
  { host: "release", method: "GET", pattern: "/downloads/:tag/:name", auth: "none", handle: download },
];
