export { registerImages } from "./images.routes.ts";

export {
  ownImageFile,
  publicOrigin,
  renderImageUrl,
  storedImageFile,
  storeImage,
} from "./store.ts";
