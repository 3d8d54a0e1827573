/** What every call of a container killed by a fault case throws, from its death on (a timeout or a crash in Lambda). */
export class Killed extends Error {
  constructor() {
    super('container killed');
  }
}
