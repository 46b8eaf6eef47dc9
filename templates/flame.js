/* flame.js - see render/html_views.h; filled in by its view. */
