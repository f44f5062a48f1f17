/** Opens a URL in the user's browser (BROWSER_BIN, else the platform opener); returns an error text or undefined. */

export async function openBrowser(url: string): Promise<string | undefined> {
  const custom = Deno.env.get("BROWSER_BIN")?.trim();
  const [cmd, ...args] = custom
    ? [custom, url]
    : Deno.build.os === "darwin"
    ? ["open", url]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", "", url]
    : ["xdg-open", url];
  await new Promise((r) => setTimeout(r, 150)); // let the URL line print first
  try {
    const child = new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
    child.unref();
    child.status.catch(() => {});
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
