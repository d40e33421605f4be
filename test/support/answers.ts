/** The ids of a list answer's page, in order. */
export const ids = (res: { json: { data: { id: number }[] } }) => res.json.data.map((x) => x.id);

/** D1 round trips the app reports in `Server-Timing` (`d1;desc="round trips";dur=N`); NaN without one. */
export const roundTrips = (headers: Headers) =>
  Number(/d1;desc="round trips";dur=(\d+)/.exec(headers.get("server-timing") ?? "")?.[1]);

/** D1 rows read the app reports in `Server-Timing` (`d1-rows;desc="rows read";dur=N`); NaN without one. */
export const rowsRead = (headers: Headers) =>
  Number(/d1-rows;desc="rows read";dur=(\d+)/.exec(headers.get("server-timing") ?? "")?.[1]);
