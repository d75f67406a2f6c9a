/**
 * The shape of what the runtime contract serves for each resource type: the six methods that the
 * provider code stored in a stack's state calls. Inputs and outputs are property bags, as the engine
 * passes them; what each resource keeps in them is the resource's own business.
 */
type Props = Record<string, unknown>;

/** The six methods the stored provider calls for one resource type. */
export interface ResourceLifecycle {
  check(olds: Props, news: Props): Promise<unknown>;
  diff(id: string, olds: Props, news: Props): Promise<unknown>;
  create(props: Props): Promise<unknown>;
  read(id: string, props: Props): Promise<unknown>;
  update(id: string, olds: Props, news: Props): Promise<unknown>;
  remove(id: string, props: Props): Promise<unknown>;
}
