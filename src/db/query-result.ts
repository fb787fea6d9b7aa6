// What a statement answers on either driver: pg's result and the PGlite runner's are both read as this.
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}
