// A page's design: a GrapesJS document of the page's component tree and its CSS rules, as the
// studio's editor saves it (`{ components, styles }`). A new page starts empty.
export interface DesignDocument {
  components: unknown[];
  styles: unknown[];
}

export const emptyDesign = (): DesignDocument => ({ components: [], styles: [] });
