export { registerImages } from "./images.routes.ts";

export {
  logUnconfiguredOrigin,
  ownImageFile,
  publicOrigin,
  renderImageUrl,
  storedImageFile,
  storeImage,
} from "./store.ts";
